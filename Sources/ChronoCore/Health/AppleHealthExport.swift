/// Writes health records as an Apple Health `export.xml`-style document, so tools that read Apple
/// Health exports read ours: `<HealthData>` with one `<Record>` per session and a `<MetadataEntry>`
/// per metadata key. Dates use Apple's export format (`2026-11-23 08:20:17 +0100`).
public enum AppleHealthExport {
    public static func document(records: [HealthRecord], exportDate: WallTime) -> String {
        var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate?, Record*)>
        <!ATTLIST HealthData locale CDATA #REQUIRED>
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate value CDATA #REQUIRED>
        <!ELEMENT Record (MetadataEntry*)>
        <!ATTLIST Record type CDATA #REQUIRED sourceName CDATA #REQUIRED sourceVersion CDATA #IMPLIED device CDATA #IMPLIED creationDate CDATA #IMPLIED startDate CDATA #REQUIRED endDate CDATA #REQUIRED value CDATA #IMPLIED>
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry key CDATA #REQUIRED value CDATA #REQUIRED>
        ]>
        <HealthData locale="en_US">
         <ExportDate value="\(escape(exportDate.appleHealthExportText))"/>

        """
        for record in records {
            xml += record.appleHealthXMLElement
        }
        xml += "</HealthData>\n"
        return xml
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension HealthRecord {
    /// The `<Record>` element with its `<MetadataEntry>` children, indented one space as Apple does.
    public var appleHealthXMLElement: String {
        let escape = AppleHealthExport.escape
        var xml = " <Record type=\"\(Self.type)\" sourceName=\"\(Self.sourceName)\" sourceVersion=\"\(Self.schemaVersion)\""
            + " device=\"\(escape(device))\" creationDate=\"\(endDate.appleHealthExportText)\""
            + " startDate=\"\(startDate.appleHealthExportText)\" endDate=\"\(endDate.appleHealthExportText)\""
            + " value=\"HKCategoryValueNotApplicable\">\n"
        for entry in metadata {
            xml += "  <MetadataEntry key=\"\(escape(entry.key))\" value=\"\(escape(entry.value.exportText))\"/>\n"
        }
        xml += " </Record>\n"
        return xml
    }
}
