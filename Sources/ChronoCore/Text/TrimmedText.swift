extension String {
    /// The text without whitespace (spaces, tabs, line breaks, Unicode spaces) at either end: the one
    /// trimming every value from outside gets before it is checked (setting values, key and note
    /// text, collector credentials). ChronoCore has no Foundation, so not `trimmingCharacters(in:)`.
    public var trimmingWhitespace: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
