export { gitHttpClient, NetworkTimeoutError, TooManyRedirectsError, type GitHttpClientOptions } from './git-http-client';
