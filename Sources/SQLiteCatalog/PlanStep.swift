/// One step of `EXPLAIN QUERY PLAN`: `parent` 0 is the top-level query.
public struct PlanStep: Sendable {
    public let id: Int
    public let parent: Int
    public let detail: String
}
