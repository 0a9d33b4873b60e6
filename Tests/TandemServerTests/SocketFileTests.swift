import Foundation
import Glibc
import TandemPOSIX
import Testing
@testable import TandemServer

/// Where the socket lives, who may use it, and what is found at its path.
@Suite("control socket: the socket file")
struct SocketFileTests {
    private func mode(_ path: String) -> (type: mode_t, permissions: mode_t)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (st.st_mode & S_IFMT, st.st_mode & 0o777)
    }

    private func refusal(_ options: ControlSocket.Options) -> ControlSocketError? {
        let socket = ControlSocket(options: options) { _ in }
        do {
            try socket.start()
            socket.stop()
            return nil
        } catch let error as ControlSocketError {
            return error
        } catch {
            return nil
        }
    }

    @Test("the default path is $XDG_RUNTIME_DIR/tandem/control.sock; without a usable XDG_RUNTIME_DIR there is none")
    func defaultPath() throws {
        let dir = makeTempDirectory()
        defer { removeDirectory(dir) }
        #expect(try ControlSocket.defaultPath(environment: ["XDG_RUNTIME_DIR": dir]) == dir + "/tandem/control.sock")
        #expect(try ControlSocket.defaultPath(environment: ["XDG_RUNTIME_DIR": dir + "/"]) == dir + "/tandem/control.sock")
        #expect(try ControlSocket.Options.standard(environment: ["XDG_RUNTIME_DIR": dir]).ownsDirectory)

        func failure(_ env: [String: String]) -> String? {
            do {
                _ = try ControlSocket.defaultPath(environment: env)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(failure([:]) == "XDG_RUNTIME_DIR is not set, so there is no default socket path; give one with --socket")
        #expect(failure(["XDG_RUNTIME_DIR": ""]) == "XDG_RUNTIME_DIR is not set, so there is no default socket path; give one with --socket")
        #expect(failure(["XDG_RUNTIME_DIR": "run/user"]) == "XDG_RUNTIME_DIR is not an absolute path (run/user); give a socket path with --socket")
        _ = FileManager.default.createFile(atPath: dir + "/file", contents: Data())
        #expect(failure(["XDG_RUNTIME_DIR": dir + "/file"]) == "XDG_RUNTIME_DIR (\(dir)/file) is not a directory; give a socket path with --socket")
        #expect(failure(["XDG_RUNTIME_DIR": dir + "/missing"]) == "XDG_RUNTIME_DIR (\(dir)/missing) is not a directory; give a socket path with --socket")
    }

    @Test("the server's own directory is made 0700 and the socket file is 0600")
    func modes() throws {
        let dir = makeTempDirectory()
        defer { removeDirectory(dir) }
        let options = try ControlSocket.Options.standard(environment: ["XDG_RUNTIME_DIR": dir])
        let socket = ControlSocket(options: options) { _ in }
        try socket.start()
        defer { socket.stop() }
        #expect(mode(dir + "/tandem")! == (S_IFDIR, 0o700))
        #expect(mode(options.path)! == (S_IFSOCK, 0o600))
        _ = try TestClient(path: options.path)
    }

    @Test("the server's own directory open to group or others, or not a directory, is refused")
    func unsafeDirectory() throws {
        let dir = makeTempDirectory()
        defer { removeDirectory(dir) }
        mkdir(dir + "/tandem", 0o700)
        chmod(dir + "/tandem", 0o755)
        let path = dir + "/tandem/control.sock"
        #expect(refusal(.init(path: path, ownsDirectory: true))?.description
                == "\(dir)/tandem: is open to group or others (mode 0755); it must be 0700")
        #expect(mode(path) == nil, "nothing was made")

        chmod(dir + "/tandem", 0o710)
        #expect(refusal(.init(path: path, ownsDirectory: true))?.description
                == "\(dir)/tandem: is open to group or others (mode 0710); it must be 0700")

        symlink(dir + "/tandem", dir + "/link")
        #expect(refusal(.init(path: dir + "/link/control.sock", ownsDirectory: true))?.description
                == "\(dir)/link: is not a directory")

        // A directory the user chose is the user's business (the socket and peers are checked).
        #expect(refusal(.init(path: path)) == nil)
    }

    @Test("a directory that is not the server's own must exist")
    func missingDirectory() {
        let dir = makeTempDirectory()
        defer { removeDirectory(dir) }
        #expect(refusal(.init(path: dir + "/nowhere/control.sock")) == .missingDirectory(dir + "/nowhere"))
        #expect(refusal(.init(path: dir + "/" + String(repeating: "s", count: 120)))?.description.contains("at most 107 bytes") == true)
    }

    @Test("a stale socket file (nobody answers) is replaced")
    func staleSocketReplaced() throws {
        let dir = makeTempDirectory()
        defer { removeDirectory(dir) }
        let path = dir + "/control.sock"
        // What a server that died leaves: a bound socket file with no listener.
        let dead = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(UnixSocketAddress.bind(dead, path) == 0)
        close(dead)
        #expect(mode(path)?.type == S_IFSOCK)

        let log = EventLog()
        let server = ControlSocket(options: .init(path: path), onEvent: log.add)
        try server.start()
        defer { server.stop() }
        let client = try TestClient(path: path)
        client.write("hello\n")
        #expect(log.wait { $0.contains { if case .line = $0 { true } else { false } } })
    }

    @Test("a live socket is refused: another server is running there, and it keeps running")
    func liveSocketRefused() throws {
        let server = try TestServer()
        defer { server.stopAndRemove() }
        let second = ControlSocket(options: .init(path: server.path)) { _ in }
        #expect(throws: ControlSocketError.alreadyRunning(server.path)) { try second.start() }
        #expect(ControlSocketError.alreadyRunning(server.path).description == "another tandem serve is running at \(server.path)")
        second.stop()

        #expect(mode(server.path)?.type == S_IFSOCK, "the refused server removed nothing")
        // The second server's probe was a connection like any other: in, and out again.
        #expect(server.log.waitForDisconnect(ClientID(1)) == "closed by the client")
        let (client, id) = try server.connect()
        #expect(id == ClientID(2))
        client.write("still served\n")
        #expect(server.log.waitForLines(id, count: 1))
    }

    @Test("something that is not a socket at the path is left alone")
    func notASocket() throws {
        let dir = makeTempDirectory()
        defer { removeDirectory(dir) }
        let path = dir + "/control.sock"
        _ = FileManager.default.createFile(atPath: path, contents: Data("keep".utf8))
        #expect(refusal(.init(path: path)) == .notASocket(path))
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
    }

    @Test("a peer of the same user connects, and the server knows its pid, uid and gid")
    func sameUserConnects() throws {
        let server = try TestServer()
        defer { server.stopAndRemove() }
        _ = try server.connect()
        guard case .connected(_, let peer) = server.log.all.first else {
            Issue.record("no connection reported")
            return
        }
        #expect(peer == ControlSocket.Peer(pid: getpid(), uid: geteuid(), gid: getegid()))
    }

    @Test("a peer of another user is sent one error line, closed, and reported as rejected, not as a client")
    func otherUserRejected() throws {
        let serviceUID = geteuid() &+ 1
        let server = try TestServer { $0.serviceUID = serviceUID }
        defer { server.stopAndRemove() }
        let client = try TestClient(path: server.path)
        client.write("{\"type\":\"hello\"}\n")
        let expected = "uid \(geteuid()) is not the same user as the service (uid \(serviceUID))"
        #expect(client.readLine() == #"{"error":"\#(expected)","type":"error"}"#)
        #expect(client.readsEnd())
        #expect(server.log.wait { $0.count == 1 })
        #expect(server.log.all == [.rejected(ControlSocket.Peer(pid: getpid(), uid: geteuid(), gid: getegid()), reason: expected)])

        // With the peer's group allowed, the same peer gets in, as client 1.
        let grouped = try TestServer {
            $0.serviceUID = serviceUID
            $0.allowedGroup = getegid()
        }
        defer { grouped.stopAndRemove() }
        let (_, id) = try grouped.connect()
        #expect(id == ClientID(1))
    }
}
