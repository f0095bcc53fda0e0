import ArgumentParser

/// `--generate-completion-script bash`: ArgumentParser's script, with the
/// default subcommand put back. Its generator ignores `defaultSubcommand`:
/// at the root it offered only the subcommands, so `ics-agenda
/// Fixtures/acc<TAB>` completed nothing and `ics-agenda --format <TAB>`
/// offered subcommands. Words that do not name a subcommand are now
/// completed as the agenda's, as the parser reads them, with the
/// subcommands offered beside them for the first word.
enum BashCompletion {
    /// What the root offers for its first word.
    static let subcommands = Subcommand.words.joined(separator: " ")

    static let rootFallback = """
            *)
                # Offer subcommand completions
                COMPREPLY+=($(compgen -W '\(subcommands)' -- "${cur}"))
                ;;
        """

    /// `text` with the root's fallback replaced, when it is the bash
    /// script (however it was asked for: `--generate-completion-script
    /// bash`, or with the shell taken from `$SHELL`); any other text as it is.
    static func patched(_ text: String) -> String {
        let agenda = """
                *)
                    # Not a subcommand: the words are the agenda's, its default subcommand.
                    COMPREPLY=()
                    unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")
                    _ics-agenda_\(Subcommand.byDefault.name)
                    if (( COMP_CWORD == 1 )); then
                        COMPREPLY+=($(compgen -W '\(subcommands)' -- "${cur}"))
                    fi
                    ;;
            """
        return text.replacingOccurrences(of: rootFallback, with: agenda)
    }
}
