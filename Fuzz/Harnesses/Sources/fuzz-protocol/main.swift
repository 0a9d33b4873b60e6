import FuzzSupport

runFuzzer(fuzzProtocol)
