import AgendaCore
import ArgumentParser

/// `--template` for `next` and `join`: one line per occurrence from the
/// agenda's placeholders (`{title}`, `{start}`, `{meeting_url}`, ...).
struct TemplateOption: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("One line per occurrence from {placeholders}, as the agenda's --template: {title} {start} " +
            "{end} {meeting_url} ...", valueName: "string"),
        transform: { text in ParsedValue { try Template(text) } else: { "--template: \($0)" } })
    var template: ParsedValue<Template>?

    func validate() throws {
        try template?.check()
    }
}
