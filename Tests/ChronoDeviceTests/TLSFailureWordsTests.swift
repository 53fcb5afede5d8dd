@testable import ChronoDevice
import Testing

/// A failed handshake is told in words, without BoringSSL's error number or source path.
@Suite struct TLSFailureWordsTests {
    @Test func untrustedCertificate() {
        let raw = "handshakeFailed(NIOSSL.BoringSSLError.sslError([Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at /work/main/.build/checkouts/swift-nio-ssl/Sources/CNIOBoringSSL/ssl/handshake.cc:320]))"
        #expect(TLSFailureWords.reason(raw) == "its certificate is not signed by a CA this device trusts, or has expired (CERTIFICATE_VERIFY_FAILED)")
    }

    @Test func anotherHostsCertificate() {
        #expect(TLSFailureWords.reason("NIOSSLExtraError.failedToValidateHostname: Couldn't find collector.test in certificate from peer") == "its certificate names another host")
    }

    @Test func otherReasonsKeepOnlyTheirName() {
        let raw = "handshakeFailed(NIOSSL.BoringSSLError.sslError([Error: 268435703 error:100000f7:SSL routines:OPENSSL_internal:TLSV1_ALERT_PROTOCOL_VERSION at /x/handshake.cc:1]))"
        #expect(TLSFailureWords.reason(raw) == "TLSV1_ALERT_PROTOCOL_VERSION")
        #expect(TLSFailureWords.reason("uncleanShutdown") == "uncleanShutdown")
    }
}
