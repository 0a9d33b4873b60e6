import FuzzSupport

runFuzzer(fuzzTransport)
