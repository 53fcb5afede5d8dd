import Dispatch

/// Runs blocking work (store reads and writes through SQLite) on Dispatch's pool, so that the few
/// cooperative threads serving requests and live events are never held by disk I/O.
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
