import Foundation

// `tandem`: see Help.swift for the commands. Exit statuses: 0 ok, 1 an expect or a check
// failed, 2 bad input (Docs/tandem.1), 64 usage, 69 a required service is unavailable.
setlocale(LC_ALL, "")
let status = CLI.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
