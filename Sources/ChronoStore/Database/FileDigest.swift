import Glibc

/// A 64-bit digest of a file's bytes, to notice a file whose contents changed although its size and
/// modification time say nothing wrote to it: a flipped bit on an SD card or a failing disk.
///
/// Not cryptographic — it guards against the storage, not against a person, who can change the
/// file and its marker alike. Four lanes over 32-byte stripes, each step
/// `lane = rotl(lane &+ word &* p2, 31) &* p1` (the round xxHash64 uses, written here): for a fixed
/// lane the step is a bijection of the word and for a fixed word a bijection of the lane, and the
/// lanes are summed and mixed bijectively, so a change confined to one 8-byte word — any single
/// flipped bit — always changes the digest; wider damage goes unnoticed with probability 2⁻⁶⁴.
/// Reading and mixing run at memory speed in a release build (docs/FAULTS.md has the figures).
enum FileDigest {
    static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    static let chunkSize = 1 << 20

    /// The digest of the file at `path`, or nil when it cannot be read to its end.
    static func of(path: String) -> UInt64? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var state = State()
        while true {
            // Fill the whole chunk (a read may return less), so every chunk but the last is whole stripes.
            var filled = 0
            while filled < chunkSize {
                let count = read(descriptor, buffer.baseAddress! + filled, chunkSize - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    return nil
                }
                if count == 0 { break }
                filled += count
            }
            state.absorb(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]))
            if filled < chunkSize { return state.finish() }
        }
    }

    /// The digest of `bytes` (the same value `of(path:)` gives for a file holding them).
    static func of(bytes: [UInt8]) -> UInt64 {
        var state = State()
        bytes.withUnsafeBytes { state.absorb($0) }
        return state.finish()
    }

    /// The running lanes. `absorb` takes whole stripes until the last call, whose tail is padded with
    /// zeros (the length, mixed in at the end, tells the padding from real zeros).
    struct State {
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (prime1 &+ prime2, prime2, 0, 0 &- prime1)
        var length: UInt64 = 0
        var finished = false

        @inline(__always)
        static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = lane &+ word &* FileDigest.prime2
            return ((mixed << 31) | (mixed >> 33)) &* FileDigest.prime1
        }

        mutating func absorb(_ bytes: UnsafeRawBufferPointer) {
            precondition(!finished, "FileDigest: bytes after a partial stripe")
            length &+= UInt64(bytes.count)
            let whole = bytes.count / 32 * 32
            var (a, b, c, d) = lanes
            var offset = 0
            while offset < whole {
                a = Self.round(a, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                b = Self.round(b, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
                c = Self.round(c, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)))
                d = Self.round(d, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)))
                offset += 32
            }
            if whole < bytes.count {
                var tail = [UInt8](repeating: 0, count: 32)
                for index in whole..<bytes.count { tail[index - whole] = bytes[index] }
                tail.withUnsafeBytes { stripe in
                    a = Self.round(a, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 0, as: UInt64.self)))
                    b = Self.round(b, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
                    c = Self.round(c, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 16, as: UInt64.self)))
                    d = Self.round(d, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
                }
                finished = true
            }
            lanes = (a, b, c, d)
        }

        func finish() -> UInt64 {
            func rotl(_ value: UInt64, _ by: UInt64) -> UInt64 { (value << by) | (value >> (64 - by)) }
            var hash = rotl(lanes.0, 1) &+ rotl(lanes.1, 7) &+ rotl(lanes.2, 12) &+ rotl(lanes.3, 18)
            hash = (hash ^ length) &* FileDigest.prime3
            hash ^= hash >> 33
            hash = hash &* FileDigest.prime2
            hash ^= hash >> 29
            hash = hash &* FileDigest.prime3
            hash ^= hash >> 32
            return hash
        }
    }
}
