@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// A report's version as the page draws it, put together from the data as the page's script
/// does (``SessionReport/frame(at:)``): what the report tests compare with the store.
struct DrawnVersion {
    var version: Int
    var type: String
    var veto: Bool
    var changes: [ReportChange]
    var layers: [ReportLayer]
    var backButton: ReportBackButton?
    var noBackButton: String?
    var backMenu: [ReportMenuRow]?
    var noBackMenu: String?
    var tabs: ReportTabs?
    /// Indices into the report's findings of those that hold here.
    var findings: [Int]
    /// Indices into the report's findings of those that start here.
    var findingsStarting: [Int]
}

extension SessionReport {
    /// Every version as the page draws it, each from the one before (the page's own walk).
    var drawnVersions: [DrawnVersion] {
        var frame = ReportFrame(layers: [], view: ReportView())
        return versions.map { version in
            frame.apply(version)
            let view = frame.view
            return DrawnVersion(
                version: version.version, type: version.type, veto: version.veto == true, changes: version.changes,
                layers: frame.layers, backButton: view.button.map { buttons[$0] }, noBackButton: view.noBackButton,
                backMenu: frame.backMenu(entries), noBackMenu: view.noBackMenu, tabs: view.tabs,
                findings: findings(at: version.version),
                findingsStarting: findings.indices.filter { findings[$0].firstVersion == version.version })
        }
    }
}
