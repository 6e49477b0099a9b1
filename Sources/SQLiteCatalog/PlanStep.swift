/// One step of `EXPLAIN QUERY PLAN`: `parent` 0 is the top-level query.
package struct PlanStep: Sendable {
    package let id: Int
    package let parent: Int
    package let detail: String
}
