import Testing
import TandemService
import TandemSession

/// Examples/jobs: a job board whose labels all come from localized strings; a job cell is
/// `{"key": "job.cell", "args": [job, company]}`, "%1$@ at %2$@" in English and
/// "%1$@ na %2$@" in Brazilian Portuguese.
@Suite("jobs story")
struct JobsStoryTests {
    let run: ReplayRun

    init() throws { run = try ReplayHarness.replay(example: "jobs") }

    @Test("jobs: a localized cell label takes its arguments in order")
    func argumentsInOrder() {
        #expect(run.spoken.contains("Designer at Acme, button"))
        #expect(run.spoken.contains("iOS Engineer at Globex, button"))
        #expect(!run.spoken.contains { $0.contains("Acme at Designer") })
        #expect(run.brailleTexts.contains("Designer at Acme btn acts"))
        // A sequential %@ takes its one argument too.
        #expect(run.spoken.contains("6 open positions"))
        #expect(run.speech("speak").allSatisfy { $0.string("lang") == "en" })
    }

    @Test("jobs: the same catalog in pt-BR reads 'Designer na Acme'")
    func portuguese() throws {
        var profile = try ReplayHarness.profile()
        profile.language = "pt-BR"
        let pt = try ReplayHarness.replay(catalog: "Examples/jobs/jobs.catalog.json", scenarioText: """
            wait 1500
            next-heading
            wait 2000
            next
            wait 1500
            next
            wait 3000
            """, profile: profile)
        #expect(pt.spoken.first == "Vagas, cabeçalho")
        #expect(pt.spoken.contains("Recomendadas para você, cabeçalho"))
        #expect(pt.spoken.contains("6 vagas abertas"))
        let cell = pt.speakLine("Designer na Acme, botão")
        #expect(cell != nil)
        #expect(cell?.string("lang") == "pt-BR")
        #expect(pt.spoken(source: "hint").contains("Ações disponíveis"))
        #expect(pt.braille.contains { $0.string("text") == "Designer na Acme btn ações" && $0.string("cells")?.first == "⠨" })
        #expect(!pt.spoken.contains { $0.contains(" at ") })
    }

    @Test("jobs: saving a job speaks 'Saved' alone, and the job says so afterwards")
    func saveJob() {
        #expect(run.afterKey("action-next", occurrence: 0).contains { $0.string("op") == "speak" && $0.string("text") == "Save" })
        let saved = run.afterKey("activate", occurrence: 0)
        #expect(saved.contains { $0.string("type") == "action" && $0.string("id") == "job.designer" && $0.string("name") == "Save" })
        #expect(saved.first { $0.string("op") == "speak" }?.string("text") == "Saved")
        #expect(run.spoken.contains("Designer at Acme, Saved, button"))
    }

    @Test("jobs: hiding a job announces it, then focus moves on to the next job")
    func hideJob() {
        let hidden = run.afterKey("activate", occurrence: 1)
        #expect(hidden.contains { $0.string("type") == "action" && $0.string("id") == "job.ios" && $0.string("name") == "Hide" })
        let focus = hidden.first { $0.string("type") == "focus" }
        #expect(focus?.string("id") == "job.pm")
        #expect(focus?.string("reason") == "lost")
        let said = hidden.filter { $0.string("op") == "speak" }
        #expect(said.first?.string("text") == "Job hidden")
        #expect(said.first?.string("prio") == "message")
        #expect(said.dropFirst().first?.string("text") == "Product Manager at Initech, button")
        // The announcement is heard whole before the next job: it starts when it has ended.
        #expect(said[1].int("t")! - said[0].int("t")! == "Job hidden".count * 60)
        #expect(!run.focusedIDs().dropFirst(run.focusedIDs().firstIndex(of: "job.pm")!).contains("job.ios"))
    }

    @Test("jobs: 'show more' reveals the new jobs and focuses the first of them")
    func showMore() {
        #expect(run.afterKey("last").contains { $0.string("op") == "speak" && $0.string("text") == "Show more jobs, button" })
        let more = run.afterKey("activate", occurrence: 2)
        let focus = more.first { $0.string("type") == "focus" }
        #expect(focus?.string("id") == "job.analyst")
        #expect(focus?.string("reason") == "layoutChanged")
        #expect(more.contains { $0.string("op") == "speak" && $0.string("text") == "Data Analyst at Umbrella, button" })
        #expect(run.spoken.contains("Technical Writer at Initech, button"))
        // The button hid itself: the new last job is the end of the list.
        let ids = run.focusedIDs()
        #expect(ids.last(where: { $0.hasPrefix("job.") }) == "job.writer")
        #expect(ids.filter { $0 == "jobs.more" }.count == 1)
    }

    @Test("jobs: the list's ends play the boundary sound")
    func boundaries() {
        // Past "show more", past the last job, and before the title.
        #expect(run.afterKey("next", occurrence: 4).contains { $0.string("icon") == "boundary" })
        #expect(run.afterKey("next", occurrence: 6).contains { $0.string("icon") == "boundary" })
        #expect(run.afterKey("previous", occurrence: 1).contains { $0.string("icon") == "boundary" })
        #expect(run.sounds.filter { $0 == "boundary" }.count == 3)
    }
}
