// The process spawner is the package's (`tandem-bench` starts the same daemon scripts): every
// test that imports the support gets it too.
@_exported import TandemProcess
// So are the POSIX helpers (Unix socket addresses, the line buffer, the monotonic clock): the
// test doubles' sockets are made the way the server's and the client's are.
@_exported import TandemPOSIX
