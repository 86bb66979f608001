export { gitHttpClient, NetworkTimeoutError, RepositoryTooLargeError, TooManyRedirectsError, type GitHttpClientOptions } from './git-http-client';
