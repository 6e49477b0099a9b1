internal import Catalog
internal import PostgresNIO

/// PostgreSQL's errors as `CatalogError`s, decided here once by SQLSTATE and client error code, never by message.
/// Messages keep the server's own text (`String(reflecting:)`: `PSQLError`'s description hides it) and say which
/// operation failed; the location in them never shows a password.
extension PostgresCatalogEngine {
    /// - Parameter beforeConnection: the pool never handed over a connection (down, unreachable, circuit breaker
    ///   open, shut down): whatever the error, the catalog was unavailable.
    static func classify(_ error: any Error, operation: String, beforeConnection: Bool = false) -> CatalogError {
        if let error = error as? CatalogError { return error }
        if let error = error as? PostgresTransactionError {
            // The first of these is the cause; a failed rollback only follows it.
            if let cause = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError {
                return classify(cause, operation: operation)
            }
        }
        let message = "\(operation) failed: \(String(reflecting: error))"
        return CatalogError(beforeConnection ? .unavailable : kind(of: error), message)
    }

    static func kind(of error: any Error) -> CatalogError.Kind {
        switch error {
        case let error as PSQLError:
            if error.code == .server { return kind(sqlState: error.serverInfo?[.sqlState] ?? "") }
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
                .queryCancelled, .listenFailed, .sslUnsupported, .failedToAddSSLHandler, .unsupportedAuthMechanism,
                .authMechanismRequiresPassword, .saslError:
                return .unavailable
            default:
                return .other
            }
        case is PostgresClient.ConnectionTimeout, is PostgresClient.ConnectionLost, is CancellationError:
            return .unavailable
        default:
            return .other
        }
    }

    /// PostgreSQL's error codes (appendix A of its manual), as the catalog's kinds.
    static func kind(sqlState: String) -> CatalogError.Kind {
        switch sqlState {
        case "23505": .duplicate  // unique_violation
        // serialization, deadlock, lock/statement timeout, too many connections
        case "40001", "40P01", "55P03", "57014", "53300": .busy
        case "53100": .full  // disk_full
        // shutdown, starting up, read-only standby, no database
        case "57P01", "57P02", "57P03", "25006", "3D000": .unavailable
        default:
            switch sqlState.prefix(2) {
            case "08", "28": .unavailable  // connection exception, authorization failed
            default: .other
            }
        }
    }
}
