/// The output size for a chat image: the longest side capped, the aspect ratio kept, never upscaled.
package struct TargetSize: Sendable, Equatable {
    package let width: Int
    package let height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    package static func fitting(width: Int, height: Int, maxSide: Int) -> TargetSize {
        let longest = max(width, height)
        guard longest > maxSide else { return TargetSize(width: width, height: height) }
        let scale = Double(maxSide) / Double(longest)
        let w = width >= height ? maxSide : max(1, Int((Double(width) * scale).rounded()))
        let h = height > width ? maxSide : max(1, Int((Double(height) * scale).rounded()))
        return TargetSize(width: w, height: h)
    }
}
