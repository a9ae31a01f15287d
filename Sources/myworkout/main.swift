// Parses the command line and runs the app; everything else lives in the files beside this one.
MyworkoutCommand.start(arguments: Array(CommandLine.arguments.dropFirst()))
