/// The companion's files that the collector's pages use too (the stylesheet), embedded once in
/// `WebAssets` and lent out here rather than embedded a second time.
public enum SharedWebAssets {
    /// Path (e.g. `/app.css`) to content type, text and ETag tag, for the shared files only.
    public static let files: [String: (contentType: String, text: String, etag: String)] =
        WebAssets.files.filter { $0.key == "/app.css" }
}
