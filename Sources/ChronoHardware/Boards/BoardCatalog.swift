import Foundation

/// Finds board files by name. A name resolves to `<name>.yaml` in the first folder of `searchPath`
/// that has it; anything that looks like a path (contains `/` or ends in `.yaml`/`.yml`) is used as is.
///
/// Search order: `$CHRONOCEPTION_BOARDS_DIR`, `./boards`, a `boards` folder beside the executable or up
/// to three folders above it (so `.build/debug/chronoception` finds the checkout's `boards/`),
/// `<prefix>/share/chronoception/boards` for an installed binary, `/usr/share/chronoception/boards`,
/// `/etc/chronoception/boards`. After the search path come the built-in boards (boards/ embedded in
/// the binary by scripts/embed-boards), so a binary run from anywhere still knows `desktop`; a file on
/// the search path wins over the built-in board of the same name.
public struct BoardCatalog: Sendable {
    /// The folders searched, in order (those that do not exist are skipped).
    public var searchPath: [String]
    /// Board name to board file text, used when no folder has the name.
    public var builtIn: [String: String]

    public init(searchPath: [String], builtIn: [String: String] = BuiltInBoards.files) {
        self.searchPath = searchPath
        self.builtIn = builtIn
    }

    /// The file name a built-in board is known by in messages and `board show` (its `file:`); its last
    /// component is `<name>.yaml`, as the parser's name check wants.
    public static func builtInPath(_ name: String) -> String {
        "(built in)/\(name).yaml"
    }

    /// The catalog for this process: environment, working directory and executable location.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment,
                                workingDirectory: String = FileManager.default.currentDirectoryPath,
                                executablePath: String? = Self.executablePath()) -> BoardCatalog {
        var folders: [String] = []
        if let custom = environment["CHRONOCEPTION_BOARDS_DIR"], !custom.isEmpty { folders.append(custom) }
        folders.append((workingDirectory as NSString).appendingPathComponent("boards"))
        if let executablePath {
            var folder = (executablePath as NSString).deletingLastPathComponent
            for _ in 0..<4 {
                folders.append((folder as NSString).appendingPathComponent("boards"))
                folder = (folder as NSString).deletingLastPathComponent
            }
            let prefix = ((executablePath as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
            folders.append((prefix as NSString).appendingPathComponent("share/chronoception/boards"))
        }
        folders += ["/usr/share/chronoception/boards", "/etc/chronoception/boards"]
        var seen = Set<String>()
        let unique = folders.map { ($0 as NSString).standardizingPath }.filter { seen.insert($0).inserted }
        return BoardCatalog(searchPath: unique)
    }

    /// The running executable, through /proc so that symlinks such as `.build/debug` are resolved.
    public static func executablePath() -> String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first
    }

    /// Whether `nameOrPath` is meant as a file path rather than a board name.
    public static func isPath(_ nameOrPath: String) -> Bool {
        nameOrPath.contains("/") || nameOrPath.hasSuffix(".yaml") || nameOrPath.hasSuffix(".yml")
    }

    /// The file on disk a board name or path refers to (built-in boards have none: see `load`).
    public func locate(_ nameOrPath: String) throws(BoardNotFoundError) -> String {
        if Self.isPath(nameOrPath) {
            guard FileManager.default.fileExists(atPath: nameOrPath) else {
                throw BoardNotFoundError(name: nameOrPath, searched: [nameOrPath], available: list().map(\.name))
            }
            return nameOrPath
        }
        for folder in searchPath {
            for suffix in [".yaml", ".yml"] {
                let candidate = (folder as NSString).appendingPathComponent(nameOrPath + suffix)
                if FileManager.default.fileExists(atPath: candidate) { return candidate }
            }
        }
        throw BoardNotFoundError(name: nameOrPath, searched: existingFolders, available: list().map(\.name))
    }

    /// Locates and parses a board: a file on the search path, else the built-in board of that name.
    public func load(_ nameOrPath: String) throws -> BoardConfiguration {
        do {
            return try BoardFileParser.load(path: try locate(nameOrPath))
        } catch let notFound as BoardNotFoundError {
            guard !Self.isPath(nameOrPath), let text = builtIn[nameOrPath] else { throw notFound }
            return try BoardFileParser.parse(text, file: Self.builtInPath(nameOrPath))
        }
    }

    /// Parses a board that `list()` found.
    public func load(_ entry: Entry) throws -> BoardConfiguration {
        if entry.isBuiltIn, let text = builtIn[entry.name] {
            return try BoardFileParser.parse(text, file: entry.path)
        }
        return try BoardFileParser.load(path: entry.path)
    }

    /// One board found: a file on the search path, or a built-in board (`path` is then `builtInPath`).
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var path: String
        public var isBuiltIn = false
    }

    /// Every board on the search path, by name, then the built-in boards no file hides; a name found in
    /// an earlier folder hides later ones.
    public func list() -> [Entry] {
        var entries: [Entry] = []
        var seen = Set<String>()
        for folder in existingFolders {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for file in files.sorted() where file.hasSuffix(".yaml") || file.hasSuffix(".yml") {
                let name = (file as NSString).deletingPathExtension
                if seen.insert(name).inserted {
                    entries.append(Entry(name: name, path: (folder as NSString).appendingPathComponent(file)))
                }
            }
        }
        for name in builtIn.keys.sorted() where seen.insert(name).inserted {
            entries.append(Entry(name: name, path: Self.builtInPath(name), isBuiltIn: true))
        }
        return entries.sorted { $0.name < $1.name }
    }

    private var existingFolders: [String] {
        searchPath.filter { folder in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }

    /// The built-in board for a Raspberry Pi, from its device tree's model string
    /// (`/proc/device-tree/model`, e.g. "Raspberry Pi 3 Model B Plus Rev 1.3"); nil for anything else.
    /// The Pi 3 A+/B/B+ share one board file (same header, same pin controller).
    public static func boardName(forDeviceTreeModel model: String) -> String? {
        if model.contains("Raspberry Pi 5") { return "raspberry-pi-5" }
        if model.contains("Raspberry Pi 4") { return "raspberry-pi-4b" }
        if model.contains("Raspberry Pi Zero 2") { return "raspberry-pi-zero-2w" }
        if model.contains("Raspberry Pi 3") { return "raspberry-pi-3b" }
        return nil
    }
}
