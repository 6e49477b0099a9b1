extension S3Client {
    /// `body`'s result, with the client shut down after it whether it returned or threw: a client left running
    /// keeps its event-loop threads and connections until the process ends.
    package func shutDown<T>(after body: (S3Client) async throws -> T) async throws -> T {
        let result: T
        do {
            result = try await body(self)
        } catch {
            try? await shutdown()
            throw error
        }
        try await shutdown()
        return result
    }
}
