import ChronoAPI
import ChronoCore
import Hummingbird

/// The study analysis and the tidy export on the read API (docs/COLLECTOR.md, docs/STUDIES.md): the
/// per-participant estimates as JSON or CSV, the tidy export and its codebook. Same access rules as
/// the rest of `/api/v1`; `participant=` or `device=` narrows every one of them.
enum StudyAnalysisRoutes {
    static func add(to group: RouterGroup<APIRequestContext>, _ state: CollectorState) {
        group.get("analysis") { request, _ in
            do {
                let analysis = try await analyse(request, state)
                return CollectorHTTP.json(StudyAnalysisJSON.report(analysis))
            } catch { throw CollectorHTTP.answer(error) }
        }
        group.get("analysis.csv") { request, _ in
            do {
                let name = request.uri.queryParameters["table"].map(String.init) ?? StudyAnalysisCSV.Table.cells.rawValue
                guard let table = StudyAnalysisCSV.Table(rawValue: name) else {
                    throw APIError(.badRequest, "invalid_request", "table is cells or estimates; got '\(name.prefix(40))'.")
                }
                let analysis = try await analyse(request, state)
                return csv(StudyAnalysisCSV.text(analysis, table: table), filename: "chronoception-analysis-\(table.rawValue).csv")
            } catch { throw CollectorHTTP.answer(error) }
        }
        group.get("export-tidy.csv") { request, _ in
            do {
                let sessions = try await state.store.sessions(try await CollectorReadRoutes.known(CollectorReadRoutes.scope(request, required: false), state.store))
                let consents = try await CollectorConsentColumns.byDevice(state.store)
                var text = ""
                TidyExport.write(sessions, consents: consents) { text += $0 }
                return csv(text, filename: "chronoception-tidy.csv")
            } catch { throw CollectorHTTP.answer(error) }
        }
        group.get("export-tidy-codebook.csv") { _, _ in
            csv(TidyCodebook.csv, filename: "chronoception-tidy-codebook.csv")
        }
    }

    static func analyse(_ request: Request, _ state: CollectorState) async throws -> StudyAnalysis {
        let query = try await CollectorReadRoutes.known(CollectorReadRoutes.scope(request, required: false), state.store)
        return StudyAnalysis(StudyObservations.of(try await state.store.sessions(query)))
    }

    static func csv(_ text: String, filename: String) -> Response {
        Response(status: .ok, headers: [
            .contentType: "text/csv; charset=utf-8", .cacheControl: "no-store",
            .contentDisposition: "attachment; filename=\"\(filename)\"",
        ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
