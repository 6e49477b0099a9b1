/// Every plan of rungs 0...2 for `count` chunks, in `itertools.product` order (the last chunk's rung moves
/// fastest), as the MPCs here search them: the order decides which plan wins a tie.
enum RungPlans {
    static func forEach(count: Int, _ body: ([Int]) -> Void) {
        var plan = [Int](repeating: 0, count: count)
        while true {
            body(plan)
            var position = count - 1
            while position >= 0, plan[position] == 2 {
                plan[position] = 0
                position -= 1
            }
            if position < 0 { return }
            plan[position] += 1
        }
    }
}
