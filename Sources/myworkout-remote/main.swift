// `myworkout` with remote mode (SPEC §15): the same app, its services clients of
// myworkout-server (or the account part on Auth0). `myworkout` execs this binary for
// `--server`, `MYWORKOUT_SERVER` and `--auth0-*`; run directly, it behaves the same.
import myworkout

MyworkoutEntry.run(arguments: Array(CommandLine.arguments.dropFirst()), remote: RemoteMode.factory)
