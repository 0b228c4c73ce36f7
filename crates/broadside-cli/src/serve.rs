//! `broadside serve`: a local web page for the whole tool and the JSON API
//! it talks to, served by the binary itself.
//!
//! The API mirrors the command line: each answer is built by the function
//! that builds the command's `--format json` (so the same request and seed
//! give the same numbers), and each request is checked as the command's
//! flags are, with the same messages. Trials run on rayon from a blocking
//! task, so the server keeps answering while they play; a run stops between
//! chunks of trials when its client goes away, when it passes its time
//! limit, or when the server is stopped.
//!
//! The server reads no file: the systems are loaded once at start, from the
//! built-in data and the `--rules` folders given then, and a scenario sent
//! to it may not name a rules folder.

pub mod request;

use std::collections::HashMap;
use std::convert::Infallible;
use std::io::Write as _;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use broadside_core::montecarlo::Summary;
use broadside_core::{
    BattleRequest, Engagement, OptionKind, OptionSpec, ResolveRequest, Ruleset, Shard, Side,
};
use serde_json::{Value, json};
use tokio::sync::{Semaphore, mpsc, oneshot};

use crate::commands::{self, ResolveDice};
use crate::report::{self, BattleRow, Run, ScenarioTitle};
use crate::{Failure, cli, registry, scenario};
use request::{BattleBody, CompareBody, Endpoint, Request, ResolveBody};

/// The page, its script and its style, embedded: the page needs nothing
/// from anywhere else.
const INDEX_HTML: &str = include_str!("serve/page/index.html");
const PAGE_JS: &str = include_str!("serve/page/page.js");
const PAGE_CSS: &str = include_str!("serve/page/page.css");

/// What one server allows, so that it is safe to leave running.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The most trials one battle of a request plays.
    pub max_trials: u64,
    /// The most runs (battles, comparisons, replays, exact odds) at once;
    /// one more is answered 429.
    pub max_runs: usize,
    /// The largest request body, in bytes; a larger one is answered 413.
    pub max_body: usize,
    /// How long a run may take before it is stopped.
    pub time_limit: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_trials: 1_000_000,
            max_runs: 4,
            max_body: 64 * 1024,
            time_limit: Duration::from_secs(120),
        }
    }
}

/// A server to start.
pub struct Config {
    /// The address to listen on.
    pub bind: IpAddr,
    /// The port; 0 takes a free one.
    pub port: u16,
    /// Every registered system, loaded.
    pub systems: Vec<Box<dyn Ruleset>>,
    /// The `--rules SYSTEM=DIR` given, as the reports echo them.
    pub rules: Option<String>,
    /// Its limits.
    pub limits: Limits,
}

/// What every request reads.
struct Shared {
    systems: Vec<Box<dyn Ruleset>>,
    rules: Option<String>,
    limits: Limits,
    runs: Arc<Semaphore>,
    /// Set when the server is stopping: every run stops at its next chunk.
    stopping: Arc<AtomicBool>,
    style: String,
}

type Api = State<Arc<Shared>>;

/// A running server.
pub struct Server {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    stopping: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<Result<(), String>>>,
}

impl Server {
    /// Binds the address and starts serving on a thread of its own. With
    /// `on_interrupt`, Ctrl-C stops it too.
    pub fn start(config: Config, on_interrupt: bool) -> Result<Server, Failure> {
        let listener = std::net::TcpListener::bind((config.bind, config.port)).map_err(|e| {
            Failure::Input(format!(
                "cannot listen on {}: {e}",
                SocketAddr::new(config.bind, config.port)
            ))
        })?;
        let addr = listener
            .local_addr()
            .map_err(|e| Failure::Internal(format!("the bound address: {e}")))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| Failure::Internal(format!("a non-blocking listener: {e}")))?;
        let stopping = Arc::new(AtomicBool::new(false));
        let shared = Arc::new(Shared {
            systems: config.systems,
            rules: config.rules,
            limits: config.limits,
            runs: Arc::new(Semaphore::new(config.limits.max_runs)),
            stopping: stopping.clone(),
            style: format!("{}{PAGE_CSS}", report::html::STYLE),
        });
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("broadside-serve".into())
            .spawn(move || serve(listener, shared, stopped, on_interrupt))
            .map_err(|e| Failure::Internal(format!("starting the server: {e}")))?;
        Ok(Server {
            addr,
            stop: Some(stop),
            stopping,
            thread: Some(thread),
        })
    }

    /// The address it listens on (with the real port when 0 was asked).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops it: running work is cancelled, then the server waits for its
    /// connections to close.
    pub fn stop(mut self) -> Result<(), Failure> {
        self.stopping.store(true, Ordering::Relaxed);
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.join()
    }

    /// Waits until it stops (on Ctrl-C, when started so).
    pub fn join(mut self) -> Result<(), Failure> {
        match self.thread.take().map(std::thread::JoinHandle::join) {
            Some(Ok(Err(message))) => Err(Failure::Internal(message)),
            Some(Err(_)) => Err(Failure::Internal("the server thread panicked".into())),
            _ => Ok(()),
        }
    }
}

/// The server's own runtime: a couple of threads for the network, the
/// trials being rayon's.
fn serve(
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    stopped: oneshot::Receiver<()>,
    on_interrupt: bool,
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("starting the server's runtime: {e}"))?;
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::from_std(listener).map_err(|e| format!("listening: {e}"))?;
        let stopping = shared.stopping.clone();
        let app = router(shared);
        let (drained, drain) = oneshot::channel::<()>();
        let shutdown = async move {
            let interrupt = async {
                if on_interrupt {
                    let _ = tokio::signal::ctrl_c().await;
                } else {
                    std::future::pending::<()>().await;
                }
            };
            tokio::select! {
                _ = stopped => {}
                () = interrupt => {}
            }
            // Every run stops at its next chunk and answers that it was
            // stopped; then the connections are let go.
            stopping.store(true, Ordering::Relaxed);
            let _ = drained.send(());
        };
        let server = axum::serve(listener, app).with_graceful_shutdown(shutdown);
        let deadline = async {
            // A client that keeps its connection open is not waited for
            // long once the server is stopping.
            let _ = drain.await;
            tokio::time::sleep(Duration::from_secs(3)).await;
        };
        tokio::select! {
            served = server => served.map_err(|e| format!("serving: {e}")),
            () = deadline => Ok(()),
        }
    })
}

fn router(shared: Arc<Shared>) -> Router {
    let max_body = shared.limits.max_body;
    Router::new()
        .route("/", get(index))
        .route("/page.js", get(script))
        .route("/page.css", get(style))
        .route("/favicon.ico", get(no_icon))
        .route("/api/systems", get(systems))
        .route("/api/setup", get(setup))
        .route("/api/ships/{system}", get(ships))
        .route("/api/tables/{system}", get(tables))
        .route("/api/tables/{system}/{table}", get(table))
        .route("/api/resolve", post(resolve))
        .route("/api/battle", post(run_handler(Endpoint::Battle)))
        .route("/api/replay", post(run_handler(Endpoint::Replay)))
        .route("/api/compare", post(run_handler(Endpoint::Compare)))
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(shared)
}

/// Why a request was not answered with its result.
#[derive(Debug)]
enum ApiError {
    /// Bad input, with the command line's message: 400.
    Input(String),
    /// Over a limit of size: 413.
    TooLarge(String),
    /// Every run slot taken: 429.
    Busy(String),
    /// A run stopped by its time limit or the server stopping: 503.
    Stopped(String),
    /// A bug of ours: 500.
    Internal(String),
}

impl From<Failure> for ApiError {
    fn from(failure: Failure) -> ApiError {
        match failure {
            Failure::Input(message) => ApiError::Input(message),
            Failure::Internal(message) => ApiError::Internal(message),
            Failure::Closed => ApiError::Internal("output closed".into()),
        }
    }
}

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            ApiError::Input(_) => StatusCode::BAD_REQUEST,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Busy(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Stopped(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn message(&self) -> &str {
        match self {
            ApiError::Input(m)
            | ApiError::TooLarge(m)
            | ApiError::Busy(m)
            | ApiError::Stopped(m)
            | ApiError::Internal(m) => m,
        }
    }

    /// `{"error": "...", "status": 400}`.
    fn json(&self) -> Value {
        json!({"error": self.message(), "status": self.status().as_u16()})
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status(), axum::Json(self.json())).into_response()
    }
}

type Answer = Result<axum::Json<Value>, ApiError>;

async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        INDEX_HTML,
    )
}

/// No icon: a browser asks for one, and an empty answer is not an error.
async fn no_icon() -> StatusCode {
    StatusCode::NO_CONTENT
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        PAGE_JS,
    )
}

async fn style(State(shared): Api) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        shared.style.clone(),
    )
}

impl Shared {
    fn system(&self, id: &str) -> Result<&dyn Ruleset, ApiError> {
        self.systems
            .iter()
            .find(|s| s.id() == id)
            .map(|s| s.as_ref())
            .ok_or_else(|| ApiError::Input(crate::one_line(&registry::unknown(id).to_string())))
    }

    fn run<'a>(&'a self, seed: u64, max_turns: u32) -> Run<'a> {
        Run {
            seed,
            max_turns,
            rules: self.rules.as_deref(),
        }
    }

    /// The trials a request asks for: its own, else a scenario's, else the
    /// command line's default; within the command line's range (400) and
    /// this server's limit (413).
    fn trials(&self, given: Option<u64>, scenario: Option<u64>) -> Result<u64, ApiError> {
        let trials = given.or(scenario).unwrap_or(cli::DEFAULT_TRIALS);
        request::in_range("trials", trials, 1, cli::MAX_TRIALS).map_err(ApiError::Input)?;
        if trials > self.limits.max_trials {
            return Err(ApiError::TooLarge(format!(
                "trials: {trials} is more than this server plays for one request ({})",
                self.limits.max_trials
            )));
        }
        Ok(trials)
    }
}

/// `systems --format json`.
async fn systems(State(shared): Api) -> Answer {
    Ok(axum::Json(commands::systems_json(&shared.systems)))
}

/// What the page's forms are filled from: each system's ships, tables and
/// options, the built-in scenario and this server's limits.
async fn setup(State(shared): Api) -> Answer {
    let systems: Vec<Value> = shared
        .systems
        .iter()
        .map(|s| {
            let ships: Vec<String> = s.ships().iter().map(|ship| ship.id().to_owned()).collect();
            json!({
                "id": s.id(),
                "title": s.title(),
                "description": s.description(),
                "ships": ships,
                "resolve_options": specs_json(s.resolve_options()),
                "battle_options": specs_json(s.battle_options()),
                "side_options": specs_json(s.side_options()),
            })
        })
        .collect();
    Ok(axum::Json(json!({
        "version": report::VERSION,
        "systems": systems,
        "default_scenario": scenario::DEFAULT,
        "default_trials": cli::DEFAULT_TRIALS,
        "default_max_turns": cli::DEFAULT_MAX_TURNS,
        "limits": {
            "max_trials": shared.limits.max_trials,
            "max_runs": shared.limits.max_runs,
            "max_body": shared.limits.max_body,
            "time_limit_seconds": shared.limits.time_limit.as_secs(),
        },
    })))
}

/// Options as the page builds its inputs from them.
fn specs_json(specs: &[OptionSpec]) -> Vec<Value> {
    specs
        .iter()
        .map(|spec| {
            let mut value = json!({
                "name": spec.name,
                "value_name": spec.value_name,
                "help": spec.help,
                "required": spec.required,
            });
            let kind = match spec.kind {
                OptionKind::Flag => json!({"kind": "flag"}),
                OptionKind::Number { min, max } => {
                    json!({"kind": "number", "min": min, "max": max})
                }
                OptionKind::Choice(choices) => json!({"kind": "choice", "choices": choices}),
                OptionKind::Text => json!({"kind": "text"}),
            };
            if let (Value::Object(value), Value::Object(kind)) = (&mut value, kind) {
                value.extend(kind);
            }
            value
        })
        .collect()
}

/// `ships SYSTEM --format json`.
async fn ships(State(shared): Api, Path(system): Path<String>) -> Answer {
    let system = shared.system(&system)?;
    Ok(axum::Json(commands::ships_json(
        system.id(),
        &system.ships(),
    )?))
}

/// `table SYSTEM --format json`.
async fn tables(State(shared): Api, Path(system): Path<String>) -> Answer {
    let system = shared.system(&system)?;
    Ok(axum::Json(commands::tables_json(
        system.id(),
        &system.tables(),
    )))
}

/// `table SYSTEM TABLE --format json`.
async fn table(State(shared): Api, Path((system, table)): Path<(String, String)>) -> Answer {
    let system = shared.system(&system)?;
    let tables = system.tables();
    let found = tables.iter().find(|t| t.id == table).ok_or_else(|| {
        let unknown = broadside_core::ResolveError::unknown(
            "table",
            &table,
            tables.iter().map(|t| t.id.as_str()),
        );
        ApiError::Input(crate::one_line(&format!("{}: {unknown}", system.id())))
    })?;
    Ok(axum::Json(commands::table_json(found)?))
}

/// The body, or 413 when it is over the limit.
fn body(shared: &Shared, body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(format!(
                "request body is over this server's limit of {} bytes",
                shared.limits.max_body
            ))
        } else {
            ApiError::Input(crate::one_line(&format!("request body: {rejection}")))
        }
    })
}

/// One of the run slots, or 429.
fn slot(shared: &Shared) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    shared.runs.clone().try_acquire_owned().map_err(|_| {
        ApiError::Busy(format!(
            "this server is already playing {} runs, its limit: try again when one ends",
            shared.limits.max_runs
        ))
    })
}

/// `resolve --format json`; with `?view=page`, also the lines `--explain`
/// prints, for the page.
async fn resolve(
    State(shared): Api,
    Query(query): Query<HashMap<String, String>>,
    given: Result<Bytes, BytesRejection>,
) -> Answer {
    let bytes = body(&shared, given)?;
    let Request::Resolve(body) =
        request::parse(Endpoint::Resolve, &bytes).map_err(ApiError::Input)?
    else {
        return Err(ApiError::Internal("a resolve body read as another".into()));
    };
    let page = query.get("view").is_some_and(|v| v == "page");
    // Exact odds may walk two million dice paths: they take a run slot.
    let permit = if body.exact {
        Some(slot(&shared)?)
    } else {
        None
    };
    let shared = shared.clone();
    let answer = tokio::task::spawn_blocking(move || {
        let answer = resolve_now(&shared, &body, page);
        drop(permit);
        answer
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the resolve task: {e}")))??;
    Ok(axum::Json(answer))
}

fn resolve_now(shared: &Shared, body: &ResolveBody, page: bool) -> Result<Value, ApiError> {
    let system = shared.system(&body.system)?;
    let options = request::options(system.resolve_options(), &body.options, "options", "")
        .map_err(ApiError::Input)?;
    options
        .validate(system.resolve_options())
        .map_err(Failure::from)?;
    let request = ResolveRequest {
        attacker: body.attacker.clone(),
        target: body.target.clone(),
        options,
    };
    if body.exact {
        if body.dice.is_some() || body.seed.is_some() {
            return Err(ApiError::Input(
                "exact: give neither seed nor dice with exact odds".into(),
            ));
        }
        let exact = commands::exact_attack(system, &request, None)?;
        return Ok(commands::exact_json(system.id(), &request, &exact)?);
    }
    let dice = match (&body.dice, body.seed) {
        (Some(_), Some(_)) => {
            return Err(ApiError::Input("dice: give seed or dice, not both".into()));
        }
        (Some(faces), None) => ResolveDice::Scripted(faces.clone()),
        (None, seed) => ResolveDice::Seed(seed.unwrap_or_else(commands::fresh_seed)),
    };
    let resolved = commands::resolve_attack(system, &request, dice)?;
    let report = resolved.json(system.id())?;
    if !page {
        return Ok(report);
    }
    let explained: Vec<String> = resolved
        .log
        .events
        .iter()
        .map(ToString::to_string)
        .collect();
    Ok(json!({"report": report, "explained": explained, "lines": resolved.report.lines()}))
}

/// What a run reports: the command's JSON and, for the page, the HTML
/// report's tables and charts.
struct Outcome {
    report: Value,
    figures: Option<String>,
    /// A replay's events as `--replay` prints them.
    explained: Option<Vec<String>>,
}

/// A run set up and checked, ready to play.
type Job = Box<dyn FnOnce(&Control) -> Result<Outcome, ApiError> + Send>;

/// When a run stops, and how far it got.
struct Control {
    cancelled: Arc<AtomicBool>,
    stopping: Arc<AtomicBool>,
    deadline: Instant,
    time_limit: Duration,
    done: Arc<AtomicU64>,
}

impl Control {
    fn go_on(&self) -> bool {
        !self.cancelled.load(Ordering::Relaxed)
            && !self.stopping.load(Ordering::Relaxed)
            && Instant::now() < self.deadline
    }

    /// Why a run that did not finish stopped.
    fn stopped(&self) -> ApiError {
        if self.stopping.load(Ordering::Relaxed) {
            ApiError::Stopped("the server is stopping: the run was cancelled".into())
        } else if self.cancelled.load(Ordering::Relaxed) {
            ApiError::Stopped("the run was cancelled".into())
        } else {
            ApiError::Stopped(format!(
                "the run passed this server's time limit of {} s and was stopped: ask for fewer trials",
                self.time_limit.as_secs()
            ))
        }
    }

    /// Plays each battle's trials, stopping between chunks when asked.
    fn play(
        &self,
        battles: &[(&str, &dyn Engagement)],
        seed: u64,
        trials: u64,
    ) -> Result<Vec<Summary>, ApiError> {
        let mut summaries = Vec::with_capacity(battles.len());
        for &(_, engagement) in battles {
            let tally = broadside_core::run_shard_while(
                engagement,
                seed,
                trials,
                Shard::WHOLE,
                &|n| {
                    self.done.fetch_add(n, Ordering::Relaxed);
                },
                &|| self.go_on(),
            )
            .map_err(Failure::from)?
            .ok_or_else(|| self.stopped())?;
            summaries.push(tally.summary(engagement.roster()));
        }
        Ok(summaries)
    }
}

/// Cancels a run when dropped: the request it answers went away.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The handler of a run's endpoint: its query (`?view=page` asks for the
/// page's extras) and body, to [`run_request`].
async fn run_at(
    endpoint: Endpoint,
    shared: Arc<Shared>,
    query: HashMap<String, String>,
    headers: HeaderMap,
    given: RunBody,
) -> Response {
    let page = query.get("view").is_some_and(|v| v == "page");
    run_request(shared, endpoint, page, headers, given).await
}

/// A run's answer, to come.
type RunFuture = std::pin::Pin<Box<dyn Future<Output = Response> + Send>>;
/// A run's query: `?view=page` asks for the page's extras.
type ViewQuery = Query<HashMap<String, String>>;
/// A run's body, or why it could not be read.
type RunBody = Result<Bytes, BytesRejection>;

/// [`run_at`] for one endpoint, as a route takes it.
fn run_handler(
    endpoint: Endpoint,
) -> impl Fn(Api, ViewQuery, HeaderMap, RunBody) -> RunFuture + Clone + Send + Sync + 'static {
    move |State(shared), Query(query), headers, given| {
        Box::pin(run_at(endpoint, shared, query, headers, given))
    }
}

/// A run: read and checked (400 or 413, however busy the server), given a
/// slot (429), then played. A client asking for `text/event-stream` gets its
/// progress as server-sent events, then the result; any other gets the
/// result as the command's JSON.
async fn run_request(
    shared: Arc<Shared>,
    endpoint: Endpoint,
    page: bool,
    headers: HeaderMap,
    given: Result<Bytes, BytesRejection>,
) -> Response {
    let streamed = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"));
    let prepared = async {
        let bytes = body(&shared, given)?;
        let request = request::parse(endpoint, &bytes).map_err(ApiError::Input)?;
        // Checked before a slot is taken, so bad input is told so however
        // busy the server is.
        let for_task = shared.clone();
        let (job, total) = tokio::task::spawn_blocking(move || prepare(&for_task, request))
            .await
            .map_err(|e| ApiError::Internal(format!("the set-up task: {e}")))??;
        let permit = slot(&shared)?;
        Ok::<_, ApiError>((job, total, permit))
    };
    let (job, total, permit) = match prepared.await {
        Ok(prepared) => prepared,
        Err(error) => return error.into_response(),
    };
    let control = Control {
        cancelled: Arc::new(AtomicBool::new(false)),
        stopping: shared.stopping.clone(),
        deadline: Instant::now() + shared.limits.time_limit,
        time_limit: shared.limits.time_limit,
        done: Arc::new(AtomicU64::new(0)),
    };
    let cancelled = control.cancelled.clone();
    let done = control.done.clone();
    let (finished, result) = oneshot::channel();
    tokio::task::spawn_blocking(move || {
        let outcome = job(&control);
        drop(permit);
        let _ = finished.send(outcome);
    });
    if !streamed {
        let _cancel = CancelOnDrop(cancelled);
        return match result.await {
            Ok(Ok(outcome)) => match outcome.explained {
                Some(explained) if page => {
                    axum::Json(json!({"report": outcome.report, "explained": explained}))
                        .into_response()
                }
                _ => axum::Json(outcome.report).into_response(),
            },
            Ok(Err(error)) => error.into_response(),
            Err(_) => ApiError::Internal("the run ended without an answer".into()).into_response(),
        };
    }
    let (events, stream) = mpsc::channel::<Result<Event, Infallible>>(16);
    tokio::spawn(async move {
        let _cancel = CancelOnDrop(cancelled);
        let mut result = result;
        let mut tick = tokio::time::interval(Duration::from_millis(150));
        loop {
            tokio::select! {
                outcome = &mut result => {
                    let event = match outcome {
                        Ok(Ok(outcome)) => Event::default().event("result").data(
                            json!({"report": outcome.report, "figures": outcome.figures}).to_string(),
                        ),
                        Ok(Err(error)) => Event::default().event("failure").data(error.json().to_string()),
                        Err(_) => Event::default().event("failure").data(
                            ApiError::Internal("the run ended without an answer".into()).json().to_string(),
                        ),
                    };
                    let _ = events.send(Ok(event)).await;
                    break;
                }
                _ = tick.tick() => {
                    let progress = json!({"done": done.load(Ordering::Relaxed), "total": total});
                    let event = Event::default().event("progress").data(progress.to_string());
                    if events.send(Ok(event)).await.is_err() {
                        // The client went away: the guard cancels the run.
                        break;
                    }
                }
                () = events.closed() => break,
            }
        }
    });
    Sse::new(tokio_stream::wrappers::ReceiverStream::new(stream))
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// A request set up as the command sets it up, every value checked: the run
/// to play, and how many trials it plays in all.
fn prepare(shared: &Arc<Shared>, request: Request) -> Result<(Job, u64), ApiError> {
    match request {
        Request::Battle(body) => prepare_battle(shared, body),
        Request::Replay(body) => prepare_replay(shared, body),
        Request::Compare(body) => prepare_compare(shared, body),
        Request::Resolve(_) => Err(ApiError::Internal("a resolve is not a run".into())),
    }
}

/// The battle request a body asks for, checked, and the battle set up.
fn battle_of(
    shared: &Shared,
    body: &BattleBody,
) -> Result<(BattleRequest, Box<dyn Engagement>), ApiError> {
    let system = shared.system(&body.system)?;
    let max_turns = request::in_range(
        "max_turns",
        body.max_turns.unwrap_or(cli::DEFAULT_MAX_TURNS),
        1,
        10_000,
    )
    .map_err(ApiError::Input)?;
    let side_options = [
        request::options(
            system.side_options(),
            &body.side_options.a,
            "side_options.a",
            "a-",
        )
        .map_err(ApiError::Input)?,
        request::options(
            system.side_options(),
            &body.side_options.b,
            "side_options.b",
            "b-",
        )
        .map_err(ApiError::Input)?,
    ];
    let request = BattleRequest {
        sides: [
            commands::side_ships(system, Side::A, &body.a)?,
            commands::side_ships(system, Side::B, &body.b)?,
        ],
        max_turns,
        options: request::options(system.battle_options(), &body.options, "options", "")
            .map_err(ApiError::Input)?,
        side_options,
    };
    let engagement = commands::prepare_battle(system, &request)?;
    Ok((request, engagement))
}

fn prepare_battle(shared: &Arc<Shared>, body: BattleBody) -> Result<(Job, u64), ApiError> {
    if body.trial.is_some() {
        return Err(ApiError::Input(
            "trial: a battle plays every trial; send a replay to see one".into(),
        ));
    }
    let (request, engagement) = battle_of(shared, &body)?;
    let trials = shared.trials(body.trials, None)?;
    let seed = body.seed.unwrap_or_else(commands::fresh_seed);
    let shared = shared.clone();
    let id = body.system;
    let job: Job = Box::new(move |control| {
        let mut summaries = control.play(&[(id.as_str(), &*engagement)], seed, trials)?;
        let summary = summaries
            .pop()
            .ok_or_else(|| ApiError::Internal("a battle without its summary".into()))?;
        let roster = engagement.roster();
        let row = BattleRow::new(
            shared.system(&id)?,
            roster.label(Side::A),
            roster.label(Side::B),
            &request,
            summary,
        );
        let run = shared.run(seed, request.max_turns);
        let report = report::battle_json(&row, &run)?;
        let figures = report::html::figures(std::slice::from_ref(&row), trials, &run, false);
        Ok(Outcome {
            report,
            figures: Some(figures),
            explained: None,
        })
    });
    Ok((job, trials))
}

fn prepare_replay(shared: &Arc<Shared>, body: BattleBody) -> Result<(Job, u64), ApiError> {
    let (_, engagement) = battle_of(shared, &body)?;
    let trials = shared.trials(body.trials, None)?;
    let trial = body.trial.unwrap_or(0);
    if trial >= trials {
        return Err(ApiError::Input(format!(
            "trial: {trial} is not a trial of this run: its trials are 0 to {} (trials {trials})",
            trials - 1
        )));
    }
    let Some(seed) = body.seed else {
        return Err(ApiError::Input(
            "seed: a replay needs the run's seed".into(),
        ));
    };
    let id = body.system;
    let job: Job = Box::new(move |_| {
        let report = commands::replay_json(&id, &*engagement, seed, trial)?;
        let mut log = broadside_core::EventLog::default();
        broadside_core::play_trial(&*engagement, seed, trial, &mut log).map_err(Failure::from)?;
        Ok(Outcome {
            report,
            figures: None,
            explained: Some(log.events.iter().map(ToString::to_string).collect()),
        })
    });
    Ok((job, 1))
}

fn prepare_compare(shared: &Arc<Shared>, body: CompareBody) -> Result<(Job, u64), ApiError> {
    let text = body
        .scenario
        .clone()
        .unwrap_or_else(|| scenario::DEFAULT.to_owned());
    let origin = if body.scenario.is_some() {
        "the request's scenario"
    } else {
        "the built-in default scenario"
    };
    if text.trim().is_empty() {
        return Err(ApiError::Input(format!("{origin} is empty")));
    }
    let source = scenario::Source {
        origin,
        text: &text,
    };
    let settings = scenario::settings(&source)
        .map_err(|problems| ApiError::from(commands::scenario_failure(&source, &problems)))?;
    if let Some(id) = settings.rules.keys().next() {
        return Err(ApiError::Input(format!(
            "{origin}: systems.{id}.rules: this server reads no folder a request names; start it with --rules {id}=DIR"
        )));
    }
    let max_turns = request::in_range(
        "max_turns",
        body.max_turns
            .or(settings.max_turns)
            .unwrap_or(cli::DEFAULT_MAX_TURNS),
        1,
        10_000,
    )
    .map_err(ApiError::Input)?;
    let trials = shared.trials(body.trials, settings.trials)?;
    let seed = body
        .seed
        .or(settings.seed)
        .unwrap_or_else(commands::fresh_seed);
    let read = scenario::read(&source, &shared.systems, max_turns)
        .map_err(|problems| ApiError::from(commands::scenario_failure(&source, &problems)))?;
    let total = trials * read.battles.len() as u64;
    let shared = shared.clone();
    let job: Job = Box::new(move |control| {
        let battles: Vec<(&str, &dyn Engagement)> = read
            .battles
            .iter()
            .map(|battle| (battle.system, &*battle.engagement))
            .collect();
        let summaries = control.play(&battles, seed, trials)?;
        let rows = commands::compare_rows(&read, &shared.systems, summaries)?;
        let run = shared.run(seed, max_turns);
        let title = ScenarioTitle {
            name: &read.name,
            description: &read.description,
        };
        let report = commands::compare_json(&read, &title, &rows, trials, &run)?;
        let figures = report::html::figures(&rows, trials, &run, true);
        Ok(Outcome {
            report,
            figures: Some(figures),
            explained: None,
        })
    });
    Ok((job, total))
}

/// `broadside serve`: loads the systems (with `--rules SYSTEM=DIR`), starts
/// the server, prints its address and serves until Ctrl-C.
pub fn serve_command(m: &clap::ArgMatches, out: &mut dyn std::io::Write) -> Result<(), Failure> {
    let bind = m
        .get_one::<IpAddr>("bind")
        .copied()
        .unwrap_or(IpAddr::from([127, 0, 0, 1]));
    let port = m.get_one::<u16>("port").copied().unwrap_or(DEFAULT_PORT);
    let folders = commands::rules_folders(m)?;
    let systems = registry::RULESETS
        .iter()
        .map(|registration| {
            commands::load_with(
                registration,
                folders
                    .get(registration.id)
                    .map(std::path::PathBuf::as_path),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let rules = folders
        .iter()
        .map(|(id, dir)| format!("{id}={}", dir.display()))
        .collect::<Vec<_>>()
        .join(" ");
    let config = Config {
        bind,
        port,
        systems,
        rules: (!rules.is_empty()).then_some(rules),
        limits: Limits::default(),
    };
    if !bind.is_loopback() {
        let mut err = std::io::stderr();
        let _ = writeln!(
            err,
            "warning: serving on {bind}: any machine that reaches this one can use the page and its API, which have no login"
        );
    }
    let server = Server::start(config, true)?;
    let addr = server.addr();
    writeln!(out, "broadside serve: http://{addr}/ (Ctrl-C stops it)")?;
    out.flush()?;
    server.join()
}

/// The port `serve` listens on when given none.
pub const DEFAULT_PORT: u16 = 7878;
