/// The warnings one component gives, kept apart by how a file's log takes
/// them (in this order): its framing, the text repairs a file tells once
/// (the first place of each), and the rest.
package struct ComponentWarnings: Sendable {
    /// About its framing: lost END lines, components nested too deep.
    package var framing: [Warning] = []
    /// Text made readable (control characters dropped, lines not UTF-8,
    /// broken UTF-8): the log tells the first of each damage in a file and
    /// passes over the others, so that one bad export is one warning.
    package var oncePerFile: [Warning] = []
    /// The rest, in the order the component gives them.
    package var rest: [Warning] = []

    package init() {}
}
