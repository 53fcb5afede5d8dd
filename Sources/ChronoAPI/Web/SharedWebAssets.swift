/// The companion's files that the collector's pages use too — the stylesheet, and format.js (SPEC §1's
/// display rule for durations, so both sites write "37s" and "1m 5s" alike) — embedded once in
/// `WebAssets` and lent out here rather than embedded a second time (scripts/embed-web's `SHARED`).
public enum SharedWebAssets {
    /// The shared paths.
    public static let paths: Set<String> = ["/app.css", "/format.js"]

    /// Path (e.g. `/app.css`) to content type, text and ETag tag, for the shared files only.
    public static let files: [String: (contentType: String, text: String, etag: String)] =
        WebAssets.files.filter { paths.contains($0.key) }
}
