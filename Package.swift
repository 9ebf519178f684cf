// swift-tools-version: 6.1
//
// SendingState for Linux: a typed UI-state core, a headless UI toolkit and
// (in later targets) a Lua 5.4 host and the `sendingstate` CLI.
//
// The rooms depend downwards only: Core <- Headless <- Lua host <- CLI.
import PackageDescription

/// Settings shared by every Swift target of ours.
let strictSettings: [SwiftSetting] = [
  // Existential types are spelled `any P`, so their cost is visible at the use site.
  .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
  name: "SendingState",
  products: [
    .library(name: "SendingState", targets: ["SendingState"]),
    .library(name: "SendingStateHeadless", targets: ["SendingStateHeadless"]),
    .library(name: "SendingStateLua", targets: ["SendingStateLua"]),
    // Plugins: manifests, grants, lockfiles and Swift native plugins (`NativePlugin`).
    .library(name: "SendingStatePlugins", targets: ["SendingStatePlugins"]),
    // For test targets: the exhaustive test store and a test clock.
    .library(name: "SendingStateTesting", targets: ["SendingStateTesting"]),
    // The live preview server is its own product, so library users never pull in a web stack.
    .library(name: "SendingStatePreview", targets: ["SendingStatePreview"]),
    .executable(name: "sendingstate", targets: ["sendingstate"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // Allocation counts for the benchmarks only (the interposer package-benchmark uses).
    .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    // The preview's HTTP and WebSocket server (default traits off: no swift-configuration).
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    // `swift package generate-documentation` for the DocC catalogs (scripts/docs.sh).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // Core: typed SendingState semantics. Imports Foundation at most.
    .target(
      name: "SendingState",
      swiftSettings: strictSettings
    ),

    // Headless: the Linux stand-in for UIKit. Depends on the core only.
    .target(
      name: "SendingStateHeadless",
      dependencies: ["SendingState"],
      swiftSettings: strictSettings
    ),

    // Lua host: Debian's system Lua 5.4, our small C shim, and the Swift runtime.
    .systemLibrary(
      name: "CLua",
      pkgConfig: "lua5.4",
      providers: [.apt(["liblua5.4-dev"])]
    ),
    .target(
      name: "CLuaShim",
      dependencies: ["CLua"]
    ),
    // Fetches for effects and payload URLs: Debian's libcurl, behind one bounded C call (a
    // body limit that stops the transfer, a deadline, a cancel flag; http and https only).
    // Built against libcurl4-openssl-dev's header; libcurl itself is opened at the first fetch
    // (see Fetch.c), so starting the CLI does not load it and its ~25 dependencies.
    .target(
      name: "CFetch"
    ),
    // The host's own Lua (the screen kernel, the sandbox, the spec host), the preview page's
    // HTML, CSS and JavaScript, and the project and plugin templates: files, built into the
    // binary with C23 #embed (see HostCode.c). A new folder here goes into `exclude:` too.
    .target(
      name: "CHostCode",
      exclude: ["kernel", "sandbox", "spec", "preview", "templates", "tools"]
    ),
    .target(
      name: "SendingStateLua",
      dependencies: ["SendingState", "SendingStateHeadless", "CLua", "CLuaShim", "CFetch", "CHostCode"],
      swiftSettings: strictSettings
    ),

    // Pictures: Debian's cairo and pango (real fonts, antialiasing, compressed PNG), opened at
    // the first picture (see Sources/CPicture/include/picture.h), so starting the CLI does not
    // load them and their ~30 dependencies.
    .target(
      name: "CPicture"
    ),

    // CLI: the tooling library (testable without a process) and the `sendingstate` executable.
    .target(
      name: "SendingStateTools",
      dependencies: ["SendingStateLua", "SendingState", "SendingStateHeadless", "SendingStatePlugins", "CPicture", "CLuaShim"],
      swiftSettings: strictSettings
    ),

    // Content hashes for plugin lockfiles: Debian's OpenSSL libcrypto (SHA-256), already
    // beside libcurl, so no crypto library is built from source.
    .systemLibrary(
      name: "CCrypto",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]
    ),

    // Plugins: packages of Lua (and Swift) that extend the host, with the capabilities they may use.
    .target(
      name: "SendingStatePlugins",
      dependencies: ["SendingStateLua", "CCrypto"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "SendingStatePluginsTests",
      dependencies: ["SendingStatePlugins", "SendingStateLua", "SendingStateHeadless"],
      resources: [.copy("Fixtures")],
      swiftSettings: strictSettings
    ),

    // Live preview: a loopback HTTP + WebSocket server that draws a screen in a browser page.
    .target(
      name: "SendingStatePreview",
      dependencies: [
        "SendingStateTools", "SendingStatePlugins", "SendingStateLua", "SendingStateHeadless", "SendingState",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "sendingstate",
      dependencies: [
        "SendingStateTools", "SendingStatePreview", "SendingStatePlugins",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/SendingStateCLI",
      // (Compiled with it too: the Foundation modules it then imports name the static libraries
      // they need, ICU's included, for the linker.)
      swiftSettings: strictSettings + [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
      // A release CLI carries the Swift runtime and Foundation in itself: it starts in 0.76×
      // the time (paired runs; the dynamic loader resolved ~9,400 symbol relocations against
      // the Swift libraries at every start; B5 in scripts/bench.sh), and runs without the
      // toolchain that built it. Debug builds (the tests') link dynamically, for faster links.
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
    ),

    // Benchmarks (release builds only: scripts/bench.sh); not a product.
    .executableTarget(
      name: "SendingStateBenchmarks",
      dependencies: [
        "SendingStateLua", "SendingState", "SendingStateHeadless",
        .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
      ],
      // The benchmarks' screens and plain-Lua floors, as Lua files built into the binary.
      resources: [.embedInCode("Lua")],
      swiftSettings: strictSettings
    ),

    // The benchmarks' reference process for cold start (a Swift + Foundation hello); not a product.
    .executableTarget(
      name: "BenchHello",
      swiftSettings: strictSettings
    ),

    // Testing reducer stores: the exhaustive test store and a test clock (Swift Testing).
    .target(
      name: "SendingStateTesting",
      dependencies: ["SendingState"],
      swiftSettings: strictSettings
    ),

    // Tests (with a small support library they share)
    .target(
      name: "SendingStateTestSupport",
      path: "Tests/SendingStateTestSupport",
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "SendingStateTests",
      dependencies: ["SendingState", "SendingStateHeadless", "SendingStateTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "SendingStateTestingTests",
      dependencies: ["SendingStateTesting", "SendingState", "SendingStateHeadless"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "SendingStateHeadlessTests",
      dependencies: ["SendingState", "SendingStateHeadless"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "SendingStateLuaTests",
      dependencies: ["SendingStateLua", "CLua", "CLuaShim", "SendingStateTestSupport"],
      resources: [.copy("Fixtures")],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "SendingStateToolsTests",
      dependencies: ["SendingStateTools", "SendingStateLua", "SendingStateTestSupport"],
      exclude: ["Fixtures"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "SendingStatePreviewTests",
      dependencies: [
        "SendingStatePreview", "SendingStateTools", "SendingStateLua", "SendingStateHeadless", "SendingStateTestSupport",
        .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOCore", package: "swift-nio"),
      ],
      swiftSettings: strictSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
