import Foundation
import Hummingbird
import HummingbirdTesting
import MediaFixtures
import MediaModel
import Testing

@testable import FeedServer

/// `GET /openapi.yaml`: the embedded description, served like the web client's files, naming every route the router
/// has. (`OpenAPIContractTests` checks the server's answers against it with schemathesis.)
@Suite(.timeLimit(.minutes(5))) struct OpenAPIRouteTests {
    let rig: ServerRig

    init() throws { rig = try ServerRig() }

    @Test func servesTheDescriptionAsYAMLWithAStrongETag() async throws {
        try await rig.app.test(.router) { client in
            let full = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(full.status == .ok)
            #expect(full.headers[.contentType] == "application/yaml")
            #expect(full.headers[.cacheControl] == "no-cache")
            #expect(full.headers[.contentLength] == String(full.body.readableBytes))
            let text = String(buffer: full.body)
            #expect(text.hasPrefix("openapi: 3.0.3\n"))
            let etag = try #require(full.headers[.eTag])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
            try await client.execute(uri: "/openapi.yaml", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/openapi.yaml", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == etag)
                #expect(response.headers[.contentLength] == String(full.body.readableBytes))
            }
        }
    }

    /// Each route the router answers (path and method) is an operation of the description, and each of the
    /// description's `$ref`s names a component it defines.
    @Test func namesEveryRouteTheRouterHas() async throws {
        let outline = try OpenAPIOutline(String(decoding: PackageResources.openapi_yaml, as: UTF8.self))
        var server = rig.server
        server.uploads = try UploadDesk(
            store: rig.store,
            configuration: UploadConfiguration(library: rig.directory.file("library"), limits: .default))
        server.viewerEvents = ViewerEventIngest(log: rig.store)
        let routes = server.router().routes
        #expect(routes.count >= 18)
        for route in routes {
            let path = OpenAPIOutline.templated(route.path.description)
            let method = route.method.rawValue.lowercased()
            #expect(
                outline.operations[path]?.contains(method) == true,
                "\(route.method) \(route.path) is not in openapi.yaml")
        }
        // And every path it describes is routed.
        let routed = Set(routes.map { OpenAPIOutline.templated($0.path.description) })
        #expect(Set(outline.operations.keys).subtracting(routed).isEmpty)
        #expect(outline.operations["/v1/uploads"] == ["options", "post"])
        #expect(outline.operations["/v1/uploads/{id}"] == ["options", "head", "patch", "delete"])
        #expect(outline.operations["/v1/events"] == ["post"])
        #expect(outline.operations["/v1/sessions"] == ["post"])
        #expect(!outline.references.isEmpty)
        for reference in outline.references {
            #expect(
                outline.components[reference.section]?.contains(reference.name) == true, "no component for \(reference)"
            )
        }
    }
}

/// What the tests need from the description, read line by line: it is written with two-space indentation, paths
/// under `paths:` at depth 1 and their methods at depth 2, components at depth 2 under their section.
struct OpenAPIOutline {
    struct Reference: Hashable, CustomStringConvertible {
        let section: String
        let name: String
        var description: String { "#/components/\(section)/\(name)" }
    }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// Path → its operations' methods, in file order.
    private(set) var operations: [String: [String]] = [:]
    /// Section (`schemas`, `responses`, ...) → the names defined in it.
    private(set) var components: [String: Set<String>] = [:]
    private(set) var references: Set<Reference> = []

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    init(_ text: String) throws {
        var topLevel = ""
        var path: String?
        var section: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let indent = line.prefix { $0 == " " }.count
            let content = line.dropFirst(indent)
            if content.hasPrefix("#") { continue }
            if let range = content.range(of: "$ref: \"#/components/") {
                let parts = content[range.upperBound...].prefix { $0 != "\"" }.split(separator: "/")
                guard parts.count == 2 else { throw Malformed(description: "a $ref that is not section/name: \(line)") }
                references.insert(Reference(section: String(parts[0]), name: String(parts[1])))
            }
            let key =
                content.hasSuffix(":")
                ? String(content.dropLast()) : content.split(separator: ":").first.map(String.init)
            guard let key else { continue }
            switch (indent, topLevel) {
            case (0, _):
                topLevel = key
            case (2, "paths"):
                guard key.hasPrefix("/") else {
                    throw Malformed(description: "a path that does not start with /: \(line)")
                }
                guard operations[key] == nil else { throw Malformed(description: "\(key) is described twice") }
                path = key
                operations[key] = []
            case (4, "paths"):
                if let path, Self.methods.contains(key) { operations[path, default: []].append(key) }
            case (2, "components"):
                section = key
            case (4, "components"):
                if let section { components[section, default: []].insert(key) }
            default:
                break
            }
        }
        guard !operations.isEmpty, !components.isEmpty else {
            throw Malformed(description: "no paths or no components")
        }
    }

    /// A router path as OpenAPI writes it: Hummingbird already prints captures as `{id}`; its recursive wildcard
    /// (`/media/**`) is the `{path}` parameter.
    static func templated(_ routerPath: String) -> String {
        routerPath.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0 == "**" ? "{path}" : String($0) }
            .joined(separator: "/")
    }
}
