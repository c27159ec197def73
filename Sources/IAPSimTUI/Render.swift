extension UIModel {
    /// The whole screen as a grid of cells.
    public func render(width: Int, height: Int) -> Grid {
        var grid = Grid(width: width, height: height)
        grid.put("iapsim", x: 0, y: 0)
        return grid
    }
}
