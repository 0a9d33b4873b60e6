import TandemModel
import TandemNavigator
import TandemPresentation
import TandemVocabulary

extension Service {
    /// A `tandem serve` session and its service, not yet opened (`open`). Live and replayed
    /// sessions start alike.
    public static func start(profile: Profile, catalog: Catalog?, options: Options = Options(), sink: any OutputSink,
                             timing: Session.SpeechTiming, outbox: ServiceOutbox = ServiceOutbox(), subscribers: Subscribers = Subscribers(),
                             makeTranslator: @escaping @Sendable (Profile) -> any BrailleTranslator) -> (Session, Service) {
        let language = profile.language ?? catalog?.language ?? "en"
        let placeholder = Navigator.placeholder(Presenter(language: language).phrases.noApp, language: language)
        // Subscribed controllers hear every transcript line too.
        let lines = MultiplexSink([sink, SubscriberSink(subscribers: subscribers, outbox: outbox)])
        let session = Session(catalog: placeholder.catalog, profile: profile, sink: lines, timing: timing, makeTranslator: makeTranslator)
        var service = Service(options: options, outbox: outbox, subscribers: subscribers)
        service.pendingCatalog = catalog
        return (session, service)
    }

    /// Says where the user is: in the `--catalog` app, or that no app is connected yet.
    public mutating func open(_ session: inout Session, at time: Milliseconds) {
        if let catalog = pendingCatalog {
            pendingCatalog = nil
            addCatalogApp(catalog, session: &session, at: time)
        } else {
            session.start(at: time)
        }
        session.settle()
    }
}
