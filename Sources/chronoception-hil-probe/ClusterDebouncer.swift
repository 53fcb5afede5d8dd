import ChronoHardware

/// The simple debounce the probe applies to raw edges (the session core has its own): edges closer
/// than `window` to the previous one belong to one cluster; a cluster counts as one change, to its
/// final level, if that level differs from the current one, stamped with the cluster's first edge.
struct ClusterDebouncer {
    let windowNanoseconds: Int64

    func debounce(_ edges: [ButtonEdge], startingPressed: Bool = false) -> [ButtonEdge] {
        var result: [ButtonEdge] = []
        var pressed = startingPressed
        var index = 0
        while index < edges.count {
            let first = edges[index]
            var last = first
            index += 1
            while index < edges.count, edges[index].monotonicNanoseconds - last.monotonicNanoseconds < windowNanoseconds {
                last = edges[index]
                index += 1
            }
            let endsPressed = last.direction == .pressed
            if endsPressed != pressed {
                result.append(ButtonEdge(last.direction, at: first.monotonicNanoseconds))
                pressed = endsPressed
            }
        }
        return result
    }
}
