import Catalog
import SQLiteCatalog
import Testing

/// `TokenRegistry` on every engine: tokens created, listed, found by hash and revoked once.
@Suite(.timeLimit(.minutes(10))) struct TokenRegistryConformanceTests {
    /// An admin token (issue 65: it may delete any post) reads back as one; others do not.
    @Test(arguments: CatalogEngine.allCases)
    func anAdminTokenReadsBackAsOne(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.createToken(
                UploadToken(id: "a1", name: "ops", hash: "sha-a", rateLimit: nil, createdAt: 1, isAdmin: true))
            try await store.createToken(UploadToken(id: "u1", name: "app", hash: "sha-u", rateLimit: nil, createdAt: 2))
            #expect(try await store.token(hash: "sha-a")?.isAdmin == true)
            #expect(try await store.token(hash: "sha-u")?.isAdmin == false)
            #expect(try await store.tokens().map(\.isAdmin) == [true, false])
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func tokensAreCreatedFoundAndRevokedOnce(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let token = UploadToken(id: "t1", name: "phone app", hash: "sha-1", rateLimit: 2.5, createdAt: 10)
            try await store.createToken(token)
            try await store.createToken(
                UploadToken(id: "t2", name: "web", hash: "sha-2", rateLimit: nil, createdAt: 11))
            let clash = await #expect(throws: CatalogError.self) {
                try await store.createToken(
                    UploadToken(id: "t3", name: "web", hash: "sha-3", rateLimit: nil, createdAt: 12))
            }
            #expect(clash?.kind == .duplicate)
            #expect(try await store.tokens().map(\.name) == ["phone app", "web"])
            #expect(try await store.token(hash: "sha-1") == token)
            #expect(try await store.token(hash: "nope") == nil)
            #expect(try await store.revokeToken("web", now: 20)?.revokedAt == 20)
            #expect(try await store.revokeToken("t2", now: 30)?.revokedAt == 20, "revoking twice keeps the first time")
            #expect(try await store.revokeToken("nobody", now: 30) == nil)
            #expect(try await store.token(hash: "sha-2")?.isRevoked == true)
        }
    }

    /// Each column reads back as written, and the list is in the order the tokens were made.
    @Test(arguments: CatalogEngine.allCases)
    func tokensAreCreatedListedFoundAndRevokedOnce(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let alice = UploadToken(id: "t1", name: "alice", hash: "hash-a", rateLimit: 2.5, createdAt: 10)
            let bob = UploadToken(id: "t2", name: "bob", hash: "hash-b", rateLimit: nil, createdAt: 10)
            try await store.createToken(alice)
            try await store.createToken(bob)
            let taken = await #expect(throws: CatalogError.self) {
                try await store.createToken(
                    UploadToken(id: "t3", name: "alice", hash: "hash-c", rateLimit: nil, createdAt: 11))
            }
            #expect(taken?.kind == .duplicate)
            #expect(try await store.tokens() == [alice, bob])
            #expect(try await store.token(hash: "hash-b") == bob)
            #expect(try await store.token(hash: "nope") == nil)
            #expect(try await store.revokeToken("alice", now: 50)?.revokedAt == 50)
            #expect(try await store.revokeToken("t1", now: 60)?.revokedAt == 50, "revoking twice keeps the first time")
            #expect(try await store.revokeToken("carol", now: 60) == nil)
            #expect(try await store.token(hash: "hash-a")?.isRevoked == true)
        }
    }
}
