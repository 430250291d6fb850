import NavStore
import NavStoreTools

/// `navdb update-layer KEY [--navigation-bar-hidden|--navigation-bar-shown]
/// [--modal-in-presentation|--no-modal-in-presentation]`: changes the top layer's own settings
/// (rule 18 of NavStore.docc/Rules.md): whether its navigation bar is hidden, and whether a
/// presented layer is modal in presentation. `layer.updated` names the fields that changed; a
/// command that changes nothing appends nothing.
struct UpdateLayerCommand: WritingCommand {
    var key: String
    var action: UpdateLayerAction
    var write: WriteOptions
}

/// What `update-layer` adds to a writing command: one value per field of ``LayerField`` given,
/// each by a pair of flags that cannot both be given.
struct UpdateLayerAction: NavigationAction {
    /// `--navigation-bar-hidden`.
    static let barHidden = Flag(
        "navigation-bar-hidden",
        help:
            "setNavigationBarHidden(true): no back button, no back menu, and the edge swipe (and iOS 26's content swipe) is refused."
    )
    /// `--navigation-bar-shown`.
    static let barShown = Flag("navigation-bar-shown", help: "setNavigationBarHidden(false): the bar shows again.")
    /// `--modal-in-presentation`.
    static let modal = Flag(
        "modal-in-presentation",
        help:
            "isModalInPresentation = true on the presented layer (a sheet with unsaved changes): a swipe-down dismissal is vetoed (and recorded)."
    )
    /// `--no-modal-in-presentation`.
    static let notModal = Flag(
        "no-modal-in-presentation", help: "isModalInPresentation = false: a swipe down dismisses the layer again.")

    /// Each field with the flags that set it to `true` and to `false`, in ``LayerField`` order.
    static let pairs: [(field: LayerField, on: Flag, off: Flag)] = [
        (.navigationBarHidden, barHidden, barShown), (.modalInPresentation, modal, notModal),
    ]

    static let spec = CommandSpec(
        abstract: "Change the top layer's navigation bar or its modal-in-presentation lock.",
        discussion: """
            Acts on the top layer (the base stack, or the topmost presented one): give one flag of either pair, or \
            one of each. The layer.updated event names the fields that changed; when the layer already has those \
            settings nothing is appended and the version stays. --modal-in-presentation is refused on the base \
            layer, which is not presented.
            """,
        options: [barHidden.spec, barShown.spec, modal.spec, notModal.spec])

    var navigationBarHidden: Bool?
    var modalInPresentation: Bool?

    /// - Throws: ``UsageError`` when neither pair is given, or both flags of one pair.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        for (field, on, off) in Self.pairs {
            let yes = arguments.flag(on)
            let no = arguments.flag(off)
            if yes && no {
                throw arguments.error(
                    "--\(on.spec.name) and --\(off.spec.name) cannot be combined: \(field.rawValue) is either true or false"
                )
            }
            guard yes || no else { continue }
            switch field {
            case .navigationBarHidden: navigationBarHidden = yes
            case .modalInPresentation: modalInPresentation = yes
            }
        }
        if navigationBarHidden == nil && modalInPresentation == nil {
            throw arguments.error(
                "Nothing to update: give --navigation-bar-hidden or --navigation-bar-shown, and/or --modal-in-presentation or --no-modal-in-presentation"
            )
        }
    }

    var unchanged: String? { "the top layer already has these settings" }

    var command: NavigationCommand {
        .updateLayer(navigationBarHidden: navigationBarHidden, modalInPresentation: modalInPresentation)
    }
}
