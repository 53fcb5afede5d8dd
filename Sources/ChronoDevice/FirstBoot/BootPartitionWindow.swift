#if canImport(Glibc)
import Glibc
#endif

/// The boot partition made writable for one write and read-only again at once. The image mounts its
/// FAT partition (the one the Pi's firmware boots from) read-only, so that a power cut never finds a
/// write in flight there or leaves its dirty bit set; first boot's apply, which alone knows whether it
/// will rewrite `chronoception.txt` (to take its secrets out), opens this window around that write.
public struct BootPartitionWindow: Sendable {
    /// Where the partition is mounted (`/boot/firmware`).
    public let mountPoint: String

    public init(mountPoint: String) {
        self.mountPoint = mountPoint
    }

    /// A window this process opened: closing it remounts the partition read-only again.
    public struct Opened: Sendable {
        let mountPoint: String
        let keptFlags: UInt

        public func close() throws(RootedFileError) {
            guard mount("", mountPoint, nil, UInt(MS_REMOUNT) | UInt(MS_RDONLY) | keptFlags, nil) == 0 else {
                let code = errno
                throw RootedFileError(path: mountPoint, reason: "could not remount it read-only again (\(String(cString: strerror(code)))); it stays writable until the next boot", errno: code)
            }
        }
    }

    /// Remounts the partition read-write. Nil when it already was (mounted read-write by someone on
    /// purpose: it is left as it was found, so there is nothing to close).
    public func open() throws(RootedFileError) -> Opened? {
        var status = statvfs()
        guard statvfs(mountPoint, &status) == 0 else {
            let code = errno
            throw RootedFileError(path: mountPoint, reason: String(cString: strerror(code)), errno: code)
        }
        guard UInt(status.f_flag) & UInt(ST_RDONLY) != 0 else { return nil }
        // A remount sets every per-mount flag anew, so the ones the mount has are given again (statvfs
        // reports them with the same bits as mount(2) takes); the file system's own options (vfat's
        // masks, `flush`) are kept by the kernel.
        let perMount = UInt(MS_NOSUID) | UInt(MS_NODEV) | UInt(MS_NOEXEC) | UInt(MS_SYNCHRONOUS)
            | UInt(MS_NOATIME) | UInt(MS_NODIRATIME) | UInt(MS_RELATIME)
        let kept = UInt(status.f_flag) & perMount
        guard mount("", mountPoint, nil, UInt(MS_REMOUNT) | kept, nil) == 0 else {
            let code = errno
            throw RootedFileError(path: mountPoint, reason: "could not remount it read-write (\(String(cString: strerror(code))))", errno: code)
        }
        return Opened(mountPoint: mountPoint, keptFlags: kept)
    }
}
