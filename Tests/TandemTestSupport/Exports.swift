// The process spawner is the package's (`tandem-bench` starts the same daemon scripts): every
// test that imports the support gets it too.
@_exported import TandemProcess
