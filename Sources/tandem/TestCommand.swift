enum TestCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 { 0 }
}
