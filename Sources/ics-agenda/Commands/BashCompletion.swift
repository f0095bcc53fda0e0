import ArgumentParser

/// `--generate-completion-script bash`: ArgumentParser's script, with the
/// default subcommand put back. Its generator ignores `defaultSubcommand`:
/// at the root it offered only the subcommands, so `ics-agenda
/// Fixtures/acc<TAB>` completed nothing and `ics-agenda --format <TAB>`
/// offered subcommands. Words that do not name a subcommand are now
/// completed as the agenda's, as the parser reads them, with the
/// subcommands offered beside them for the first word.
enum BashCompletion {
    static let rootFallback = """
            *)
                # Offer subcommand completions
                COMPREPLY+=($(compgen -W '\(RootCommand.subcommandWords.joined(separator: " "))' -- "${cur}"))
                ;;
        """

    static var script: String {
        let generated = RootCommand.completionScript(for: .bash)
        let agenda = """
                *)
                    # Not a subcommand: the words are the agenda's, its default subcommand.
                    unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")
                    _ics-agenda_agenda
                    if (( COMP_CWORD == 1 )); then
                        COMPREPLY+=($(compgen -W '\(RootCommand.subcommandWords.joined(separator: " "))' -- "${cur}"))
                    fi
                    ;;
            """
        return generated.replacingOccurrences(of: rootFallback, with: agenda)
    }

    /// The arguments that ask for the bash script.
    static func isAsked(_ arguments: [String]) -> Bool {
        arguments == ["--generate-completion-script", "bash"] || arguments == ["--generate-completion-script=bash"]
    }
}
