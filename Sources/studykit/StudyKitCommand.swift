import ArgumentParser

/// `studykit`: the command-line tool of StudyKit.
@main
struct StudyKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studykit",
        abstract: "StudyKit: tasks, surveys and studies for digital health research.",
        subcommands: [ValidateCommand.self, RunCommand.self, ScheduleCommand.self, ServeCommand.self, InviteCommand.self, ConsentCommand.self,
                      ImportCommand.self, ExportCommand.self, StringsCommand.self, ResearcherCommand.self, AuditCommand.self, MigrateCommand.self, FHIRPathCommand.self, BenchCommand.self]
    )
}
