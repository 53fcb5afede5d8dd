/// What a failed TLS handshake means, in words, from the TLS library's description of it. BoringSSL
/// describes an untrusted certificate as `…error:1000007d:SSL routines:OPENSSL_internal:
/// CERTIFICATE_VERIFY_FAILED at /path/to/handshake.cc:320…`: the reason's name is kept, the error
/// number and the library's source path are not a person's business.
enum TLSFailureWords {
    static func reason(_ description: String) -> String {
        if description.contains("CERTIFICATE_VERIFY_FAILED") {
            return "its certificate is not signed by a CA this device trusts, or has expired (CERTIFICATE_VERIFY_FAILED)"
        }
        if description.contains("failedToValidateHostname") {
            return "its certificate names another host"
        }
        if description.contains("WRONG_VERSION_NUMBER") {
            return "the other side does not speak TLS there, perhaps a plain http:// port (WRONG_VERSION_NUMBER)"
        }
        // Any other BoringSSL reason: its name only.
        if let marker = description.range(of: "OPENSSL_internal:") {
            let name = description[marker.upperBound...].prefix { $0.isUppercase || $0.isNumber || $0 == "_" }
            if !name.isEmpty { return String(name) }
        }
        return description
    }
}
