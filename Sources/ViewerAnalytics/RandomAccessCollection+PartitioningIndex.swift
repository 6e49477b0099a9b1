extension RandomAccessCollection {
    /// The index of the first element for which `isInSecondPart` holds, in a collection where every element for which
    /// it holds comes after every one for which it does not (a sorted one, split at a value); `endIndex` if none.
    func partitioningIndex(where isInSecondPart: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if isInSecondPart(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
