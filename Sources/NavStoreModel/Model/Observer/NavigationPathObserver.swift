/// Who changed a SwiftUI `NavigationStack`'s path or sheet (<doc:SwiftUI>): what the app knows,
/// since SwiftUI reports only the new value.
public enum PathChangeMaker: String, Sendable, Hashable, Codable, CaseIterable {
    /// The app's own code set the value (`path.removeLast()`, `path = []`, a sheet's binding).
    case app
    /// The user did it: a back button, a swipe, a back-menu row, a swipe down on a sheet.
    case user
}

/// A new value of a SwiftUI `NavigationStack`'s path or of the sheet over it, and who made it
/// (<doc:SwiftUI>): what an app hands ``NavigationPathObserver`` (through the recorder) on each change.
public enum NavigationPathChange: Sendable, Hashable {
    /// Layer `layer`'s path (0 = the base stack), root first.
    case path([Entry], layer: Int = 0, by: PathChangeMaker)
    /// The sheet over the stack: its path, root first, or `nil` once it is dismissed;
    /// `modalInPresentation` is its `interactiveDismissDisabled` when given.
    case sheet([Entry]?, modalInPresentation: Bool? = nil, by: PathChangeMaker)

    /// Who made the change.
    public var maker: PathChangeMaker {
        switch self {
        case .path(_, _, let maker), .sheet(_, _, let maker): maker
        }
    }

    /// The commands that bring `state` to this value (``NavigationPathObserver``), each one the
    /// rules accept in order.
    public func commands(state: SessionState) -> [NavigationCommand] {
        switch self {
        case .path(let path, let layer, let maker):
            NavigationPathObserver.commands(path: path, layer: layer, by: maker, state: state)
        case .sheet(let sheet, let modal, let maker):
            NavigationPathObserver.commands(sheet: sheet, modalInPresentation: modal, by: maker, state: state)
        }
    }
}

/// Turns the values of a SwiftUI `NavigationStack`'s path and of its sheets into the commands
/// that bring a session to them (<doc:SwiftUI>), the SwiftUI counterpart of
/// ``NavigationControllerObserver``. Pure: it reads the state, and every command it returns is
/// one the rules accept in order, so that after each value the session's stack equals the value.
///
/// A path is the entries of a layer, root first (the root view's entry included). Compared with
/// the layer's entries by id:
/// - entries added on top are pushes;
/// - entries removed from the top are one pop: `programmatic` when the app removed them,
///   `back-menu` when the user removed more than one at once (only the long-press menu does
///   that), ``PopSource/user`` when the user removed one (the back button or a swipe: SwiftUI
///   does not say which, and neither is guessed);
/// - a kept entry whose item differs is an `item.updated`;
/// - anything else is a `stack.replaced`.
/// A change the rules refuse (a user pop where no back button or swipe could be, a change of a
/// layer under a sheet) is recorded as the stack observed
/// (``NavigationCommand/observedStack(_:layer:reason:)``), as the UIKit observer does.
public enum NavigationPathObserver {
    /// The commands that bring layer `layer` (0 = base) of `state` to `path`. An empty path
    /// changes nothing (a stack always has its root view).
    public static func commands(
        path: [Entry], layer: Int = 0, by maker: PathChangeMaker, state: SessionState
    ) -> [NavigationCommand] {
        guard !path.isEmpty, layer >= 0, layer < state.layers.count else { return [] }
        guard layer == state.topLayerIndex else {
            // Under a sheet: only the stack seen can be recorded (the rules act on the top layer).
            let entries = state.layers[layer].entries
            guard !sameEntries(entries, path) else { return [] }
            return [
                .observedStack(
                    path, layer: layer,
                    reason: "the path of layer \(layer) changed under a presented sheet; the rules act on the top layer")
            ]
        }
        return accepted(planned(path: path, current: state.topLayer.entries, by: maker), path: path, state: state)
    }

    /// Refuses a `change` that cannot be a value of `state`'s stacks: a path of a layer the
    /// session does not have, which ``NavigationPathChange/commands(state:)`` would pass over. (An empty path or
    /// sheet is refused where a trace line is read: a stack always shows its root view.)
    /// - Throws: ``ObservationError/layerOutOfRange(layer:layers:callback:reason:)``.
    public static func requireLayer(of change: NavigationPathChange, in state: SessionState) throws(ObservationError) {
        guard case .path(_, let layer, _) = change, layer >= state.layers.count else { return }
        throw .layerOutOfRange(
            layer: layer, layers: state.layers.count, callback: "path",
            reason: "the session has no layer \(layer) (a sheet's path is a \"sheet\" line)")
    }

    /// The commands that bring the sheet over the base stack to `sheet` (its path, root first):
    /// a presentation of a new sheet with pushes for the rest, a path change of the sheet shown,
    /// a dismissal (`nil`: `gesture` when the user swiped it down, `programmatic` when the app
    /// did), and `modalInPresentation` (`interactiveDismissDisabled`) when it is given.
    public static func commands(
        sheet: [Entry]?, modalInPresentation: Bool? = nil, by maker: PathChangeMaker, state: SessionState
    ) -> [NavigationCommand] {
        guard let sheet else {
            guard state.layers.count > 1 else { return [] }
            guard maker == .user else { return [.dismiss(source: .programmatic)] }
            // The user swiped the sheet away, so it was not `interactiveDismissDisabled` by then:
            // a sheet the log holds as modal was switched off since (`layer.updated` first, as
            // the UIKit observer records `didDismiss`), and the log ends at the value.
            let unlock: [NavigationCommand] =
                state.topLayer.modalInPresentation ? [.updateLayer(modalInPresentation: false)] : []
            return unlock + [.dismiss(source: .gesture)]
        }
        guard let root = sheet.first else { return [] }
        var plan: [NavigationCommand] = []
        if state.layers.count == 1 {
            plan.append(.present(root, modalInPresentation: modalInPresentation ?? false))
            plan += sheet.dropFirst().map { NavigationCommand.push($0) }
            return accepted(plan, path: sheet, state: state)
        }
        if let modal = modalInPresentation, modal != state.topLayer.modalInPresentation {
            plan.append(.updateLayer(modalInPresentation: modal))
        }
        plan += planned(path: sheet, current: state.topLayer.entries, by: maker)
        return accepted(plan, path: sheet, state: state)
    }

    /// The commands for a path change of the top layer, before the rules judge them.
    static func planned(path: [Entry], current: [Entry], by maker: PathChangeMaker) -> [NavigationCommand] {
        let kept = commonPrefix(current, path)
        var plan: [NavigationCommand] = []
        if kept == path.count, kept < current.count {
            let removed = current.count - kept
            switch (maker, removed) {
            case (.app, _): plan.append(.popTo(entryID: path[kept - 1].id, source: .programmatic))
            case (.user, 1): plan.append(.pop(source: .user))
            case (.user, _): plan.append(.popTo(entryID: path[kept - 1].id, source: .backMenu))
            }
        } else if kept < current.count {
            // Not the same entries below: neither pushes nor pops say it.
            return [.setStack(path)]
        }
        // A kept id holding another route or params is another screen: the path was replaced.
        for index in 0..<min(kept, path.count)
        where current[index].route != path[index].route || current[index].params != path[index].params {
            return [.setStack(path)]
        }
        for index in 0..<min(kept, path.count) where current[index].item != path[index].item {
            plan.append(.update(entryID: path[index].id, item: path[index].item))
        }
        plan += path.dropFirst(kept).map { NavigationCommand.push($0) }
        return plan
    }

    /// `plan` as far as the rules accept it in order; where they refuse a command, the stack
    /// seen instead (so the log still ends at `path`).
    private static func accepted(_ plan: [NavigationCommand], path: [Entry], state: SessionState) -> [NavigationCommand] {
        var working = state
        var commands: [NavigationCommand] = []
        for command in plan {
            do throws(NavigationError) {
                if let body = try working.decide(command) { working.apply(body) }
                commands.append(command)
            } catch {
                commands.append(.observedStack(path, layer: nil, reason: error.description))
                return commands
            }
        }
        return commands
    }

    /// How many entries at the bottom of `a` and `b` have the same ids, in order.
    private static func commonPrefix(_ a: [Entry], _ b: [Entry]) -> Int {
        var count = 0
        while count < a.count, count < b.count, a[count].id.hasSameScalars(as: b[count].id) { count += 1 }
        return count
    }

    /// Whether `a` and `b` are the same entries (ids, routes, params and items).
    private static func sameEntries(_ a: [Entry], _ b: [Entry]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0 == $1 }
    }
}
