import type { SearchFixture } from '@quire/search/testing/search-fixtures';

/**
 * The relevance set: queries a reader of each fixture's documentation would type, each with
 * the one page that answers it (its path in the imported space). Keyword and natural
 * queries, content-only terms (parameters that appear in the text, not the title), a few
 * typos, prefixes and a phrase, and Traditional Chinese queries on the pgsql-tw docs.
 */
export interface RelevanceQuery {
  fixture: SearchFixture;
  query: string;
  expected: string;
}

export const RELEVANCE_QUERIES: RelevanceQuery[] = [
  // Fluentd 1.0 docs (191 pages)
  { fixture: 'fluentd', query: 'tail input plugin', expected: 'input/tail' },
  { fixture: 'fluentd', query: 'follow_inodes', expected: 'input/tail' },
  { fixture: 'fluentd', query: 'install on ubuntu', expected: 'installation/install-by-deb' },
  { fixture: 'fluentd', query: 'install dmg macOS', expected: 'installation/install-by-dmg' },
  { fixture: 'fluentd', query: 'windows msi installer', expected: 'installation/install-by-msi' },
  { fixture: 'fluentd', query: 'install ruby gem', expected: 'installation/install-by-gem' },
  { fixture: 'fluentd', query: 'elasticsearch output', expected: 'output/elasticsearch' },
  { fixture: 'fluentd', query: 's3 output plugin', expected: 'output/s3' },
  { fixture: 'fluentd', query: 'kafka', expected: 'output/kafka' },
  { fixture: 'fluentd', query: 'buffer section chunk_limit_size', expected: 'configuration/buffer-section' },
  { fixture: 'fluentd', query: 'record_transformer', expected: 'filter/record_transformer' },
  { fixture: 'fluentd', query: 'grep filter exclude', expected: 'filter/grep' },
  { fixture: 'fluentd', query: 'nginx parser', expected: 'parser/nginx' },
  { fixture: 'fluentd', query: 'multiline parser', expected: 'parser/multiline' },
  { fixture: 'fluentd', query: 'prometheus monitoring', expected: 'monitoring-fluentd/monitoring-prometheus' },
  { fixture: 'fluentd', query: 'docker logging driver', expected: 'container-deployment/docker-logging-driver' },
  { fixture: 'fluentd', query: 'kubernetes daemonset', expected: 'container-deployment/kubernetes' },
  { fixture: 'fluentd', query: 'multi process workers', expected: 'deployment/multi-process-workers' },
  { fixture: 'fluentd', query: 'high availability', expected: 'deployment/high-availability' },
  { fixture: 'fluentd', query: 'SIGUSR1 signal', expected: 'deployment/signals' },
  { fixture: 'fluentd', query: 'write an output plugin', expected: 'plugin-development/api-plugin-output' },
  { fixture: 'fluentd', query: 'plugin helper timer', expected: 'plugin-helper-overview/api-plugin-helper-timer' },
  { fixture: 'fluentd', query: 'config file syntax', expected: 'configuration/config-file' },
  { fixture: 'fluentd', query: 'python logger', expected: 'language-bindings/python' },
  { fixture: 'fluentd', query: 'graylog', expected: 'how-to-guides/graylog2' },
  { fixture: 'fluentd', query: 'splunk alternative', expected: 'how-to-guides/free-alternative-to-splunk-by-fluentd' },
  { fixture: 'fluentd', query: 'upgrade from v0.12', expected: 'quickstart/update-from-v0.12' },
  { fixture: 'fluentd', query: 'raspberry pi', expected: 'how-to-guides/raspberrypi-cloud-data-logger' },
  { fixture: 'fluentd', query: 'msgpack formatter', expected: 'formatter/msgpack' },
  { fixture: 'fluentd', query: '"life of a fluentd event"', expected: 'quickstart/life-of-a-fluentd-event' },
  { fixture: 'fluentd', query: 'elasticsaerch output', expected: 'output/elasticsearch' }, // typo
  { fixture: 'fluentd', query: 'kubernets', expected: 'container-deployment/kubernetes' }, // typo
  { fixture: 'fluentd', query: 'prometh', expected: 'monitoring-fluentd/monitoring-prometheus' }, // prefix
  { fixture: 'fluentd', query: 'windows eventl', expected: 'input/windows_eventlog' }, // prefix
  // A form written on exactly one page whose stem is common (as a misspelling such as
  // "managment" stems like "management"): the page that holds it as written comes first.
  { fixture: 'fluentd', query: 'outputted', expected: 'formatter/single_value' },
  { fixture: 'fluentd', query: 'recommending', expected: 'monitoring-fluentd/monitoring-prometheus' },
  { fixture: 'fluentd', query: 'executable', expected: 'deployment/linux-capability' },

  // Nois network docs (22 pages, emoji in titles)
  { fixture: 'noislabs', query: 'faucet', expected: 'networks-and-contracts/using-the-faucet' },
  { fixture: 'noislabs', query: 'drand', expected: 'overview/drand' },
  { fixture: 'noislabs', query: 'systemd service', expected: 'use-cases/for-validators/using-systemd' },
  { fixture: 'noislabs', query: 'ibc relayer', expected: 'use-cases/for-ibc-relayer-operators' },
  { fixture: 'noislabs', query: 'bot runners', expected: 'use-cases/for-bot-runners' },
  { fixture: 'noislabs', query: 'nois toolbox javascript', expected: 'use-cases/for-dapp-developers/nois-toolbox/js' },
  { fixture: 'noislabs', query: 'how it works', expected: 'overview/how-it-works' },
  { fixture: 'noislabs', query: 'relayed chains', expected: 'networks-and-contracts/relayed-chains' },
  { fixture: 'noislabs', query: 'status checks', expected: 'use-cases/for-validators/status-checks' },
  { fixture: 'noislabs', query: 'randomized', expected: 'use-cases/for-dapp-developers/contract-implementation' }, // one page; "randomness" on 14

  // PostgreSQL docs in Traditional Chinese (824 pages)
  { fixture: 'pgsqlTw', query: 'VACUUM', expected: 'reference/sql-commands/vacuum' },
  { fixture: 'pgsqlTw', query: 'CREATE TABLE', expected: 'reference/sql-commands/create-table' },
  { fixture: 'pgsqlTw', query: '資料型別', expected: 'the-sql-language/data-types' },
  { fixture: 'pgsqlTw', query: '陣列', expected: 'the-sql-language/data-types/arrays' },
  { fixture: 'pgsqlTw', query: '交易隔離', expected: 'the-sql-language/concurrency-control/transaction-isolation' },
  { fixture: 'pgsqlTw', query: '備份及還原', expected: 'server-administration/backup-and-restore' },
  { fixture: 'pgsqlTw', query: '邏輯複寫', expected: 'server-administration/logical-replication' },
  { fixture: 'pgsqlTw', query: '多欄位索引', expected: 'the-sql-language/index/multicolumn-indexes' },
  { fixture: 'pgsqlTw', query: '日期時間函式', expected: 'the-sql-language/functions-and-operators/date-time-functions-and-operators' },
  { fixture: 'pgsqlTw', query: 'pg_stat_statements', expected: 'appendixes/additional-supplied-modules/pg_stat_statements' },
  { fixture: 'pgsqlTw', query: 'dblink', expected: 'appendixes/additional-supplied-modules/dblink' },
  { fixture: 'pgsqlTw', query: 'common table expressions', expected: 'the-sql-language/queries/with-queries' },
  { fixture: 'pgsqlTw', query: 'TOAST', expected: 'internals/database-physical-storage/toast' },
  { fixture: 'pgsqlTw', query: '列舉型別', expected: 'the-sql-language/data-types/enumerated-types' },
  { fixture: 'pgsqlTw', query: 'trust authentication', expected: 'server-administration/client-authentication/trust-authentication' },
  { fixture: 'pgsqlTw', query: 'pg_receivewal', expected: 'reference/client-applications/pg_receivewal' },
  { fixture: 'pgsqlTw', query: '全文檢索 字典', expected: 'the-sql-language/12.-quan-wen-jian-suo/12.6.-zi-dian' },
  { fixture: 'pgsqlTw', query: 'EXPLAIN', expected: 'reference/sql-commands/explain' },
  // natural Chinese questions, written without spaces
  { fixture: 'pgsqlTw', query: '如何備份資料庫', expected: 'server-administration/backup-and-restore' },
  { fixture: 'pgsqlTw', query: '什麼是邏輯複寫', expected: 'server-administration/logical-replication' },
  { fixture: 'pgsqlTw', query: '交易隔離等級是什麼', expected: 'the-sql-language/concurrency-control/transaction-isolation' },
  { fixture: 'pgsqlTw', query: '如何建立多欄位索引', expected: 'the-sql-language/index/multicolumn-indexes' },
  { fixture: 'pgsqlTw', query: '怎麼用原始碼安裝', expected: 'server-administration/installation-from-source-code' },
];
