import { describe, expect, it } from 'vitest';
import { contentFingerprint, nearDuplicate } from '../../../src/extract/site/content-fingerprint.js';

/** The chrome every page of the made-up docs site shares: ~80 words of navigation and footer. */
function nav(items: number): string {
  const links = [
    'Getting started',
    'Installation',
    'Configuration',
    'Command line',
    'HTTP API',
    'Authentication',
    'Rate limits',
    'Webhooks',
    'Troubleshooting',
    'Changelog',
    'Migration guides',
    'Glossary',
  ].slice(0, items);
  return `Harbor Docs Home Guides Reference Community Search the documentation ${links.join(' ')} Version 4.2 Edit this page on the repository`;
}

function footer(date: string): string {
  return `Was this page helpful? Yes No. Last updated ${date}. Copyright Harbor Labs. Privacy Terms Status Contact support Follow us for release notes and security advisories.`;
}

const QUEUES = `Message queues in Harbor

Harbor keeps every message in a durable queue until a consumer acknowledges it. A queue belongs to a single
namespace, and its name must be unique inside that namespace. Producers never talk to consumers directly: they
append messages to the queue, and the broker hands each message to exactly one consumer of the group that reads
it. When a consumer crashes before it acknowledges a message, the broker waits for the visibility timeout to
expire and then delivers the message again, possibly to another member of the group.

Creating a queue

Queues are created with the command line or the HTTP API. The only required setting is the name; the retention
period defaults to seven days and the visibility timeout to thirty seconds. Choose the visibility timeout from
the slowest consumer you expect, not the average one: a timeout shorter than the processing time makes the broker
deliver the same message twice while the first consumer is still working on it. Retention decides how long an
unacknowledged message survives; after that it moves to the dead letter queue when one is configured, and is
dropped otherwise.

Ordering and deduplication

Messages that share an ordering key are delivered in the order they were appended, one at a time. Messages
without a key may be delivered in any order and in parallel, which is what most workloads want. Deduplication
works on the message identifier that the producer supplies: a second message with the same identifier inside the
deduplication window is accepted but not stored. Producers that retry after a network error should therefore
always send an identifier, or they risk storing the message twice.

Monitoring

Every queue reports its depth, the age of its oldest message and the number of redeliveries. A growing depth with
a steady age usually means the consumers are too few; a growing age with a steady depth means one message keeps
failing. The dashboard draws both, and alerts can be attached to either from the queue's settings page.`;

const SCHEDULES = `Scheduled jobs in Harbor

A scheduled job runs a container image on a calendar, in the cloud region you pick. Schedules use the familiar
five field cron syntax, evaluated in the time zone of the job rather than the server, so that a job set for nine
in the morning still runs at nine after a change to daylight saving time. Each run gets a fresh container with the
environment variables and secrets of the job, and its output is kept for thirty days.

Concurrency policy

Sometimes a run lasts longer than the interval between two runs. The concurrency policy decides what happens then:
allow starts the next run anyway, forbid skips it and records the skip, and replace stops the old run before
starting the new one. Reports and backups usually want forbid; jobs that only need the latest data, such as cache
warmers, usually want replace. The default is forbid, because two copies of a job that writes to the same table are
a common source of corrupted data.

Retries and deadlines

A run that exits with a non zero status is retried with exponential backoff, up to the retry limit of the job. The
deadline caps the total time of a run including its retries; past it, the container is stopped and the run is
marked as failed. Set the deadline well below the interval, or a slow day turns into a queue of overlapping runs.

Notifications

Failed runs can notify a webhook, an email address or a chat channel. The notification carries the job name, the
run identifier, the exit status and the last lines of the output. Successful runs stay quiet unless you ask for a
daily summary, which lists every run of the day with its duration and status.`;

function page(article: string, navItems: number, date: string): string {
  return `${nav(navItems)}\n\n${article}\n\n${footer(date)}`;
}

describe('contentFingerprint', () => {
  it('is 16 hex digits for a text of 20 words or more, the same for the same text', () => {
    const fingerprint = contentFingerprint(QUEUES);
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(contentFingerprint(QUEUES)).toBe(fingerprint);
  });

  it('reads words whatever their case, punctuation or spacing', () => {
    expect(contentFingerprint(QUEUES.toUpperCase().replace(/\n/g, '  '))).toBe(contentFingerprint(QUEUES));
  });

  it('keeps the same article a near-duplicate under a new date line or nav item count', () => {
    const original = contentFingerprint(page(QUEUES, 12, 'March 3, 2024'));
    expect(nearDuplicate(original, contentFingerprint(page(QUEUES, 12, 'March 4, 2024')))).toBe(true);
    expect(nearDuplicate(original, contentFingerprint(page(QUEUES, 12, '2025-01-09')))).toBe(true);
    expect(nearDuplicate(original, contentFingerprint(page(QUEUES, 9, 'March 3, 2024')))).toBe(true);
    expect(nearDuplicate(original, contentFingerprint(page(QUEUES, 11, 'March 3, 2024')))).toBe(true);
  });

  it('keeps every such variant within a few bits, far from another article', () => {
    // SimHash is a sample: on a page of ~400 words, a date or a nav item (three shingles of
    // each of its words) flips 0 to 6 of the 64 bits, half the time more than 3. A crawl
    // fingerprints the extracted Markdown, where the chrome is mostly gone.
    const months = ['January', 'June', 'March', 'October'];
    for (const [article, other] of [
      [QUEUES, SCHEDULES],
      [SCHEDULES, QUEUES],
    ] as const) {
      const original = contentFingerprint(page(article, 12, 'March 3, 2024'));
      const elsewhere = contentFingerprint(page(other, 12, 'March 3, 2024'));
      const variants = [
        ...months.map((month, i) => page(article, 12, `${month} ${i * 9 + 1}, 202${i}`)),
        ...[5, 6, 7, 8, 9, 10, 11].map((items) => page(article, items, 'March 3, 2024')),
      ];
      for (const variant of variants) {
        const fingerprint = contentFingerprint(variant);
        expect(nearDuplicate(original, fingerprint, 6)).toBe(true);
        expect(nearDuplicate(elsewhere, fingerprint, 20)).toBe(false);
      }
    }
  });

  it('tells two articles of the same template apart', () => {
    const queues = contentFingerprint(page(QUEUES, 12, 'March 3, 2024'));
    const schedules = contentFingerprint(page(SCHEDULES, 12, 'March 3, 2024'));
    expect(nearDuplicate(queues, schedules)).toBe(false);
    // Far apart, not just past the threshold.
    expect(nearDuplicate(queues, schedules, 12)).toBe(false);
  });

  it('gives a short text an exact hash that only the same words match', () => {
    const short = contentFingerprint('Page not found. Try the search box.');
    expect(short).toMatch(/^x[0-9a-f]{16}$/);
    expect(contentFingerprint('  page NOT found — try the search box ')).toBe(short);
    expect(nearDuplicate(short, contentFingerprint('Page not found. Try the search box.'))).toBe(true);
    expect(nearDuplicate(short, contentFingerprint('Page not found. Try the search bar.'))).toBe(false);
    // An exact hash never matches a SimHash, whatever the digits.
    expect(nearDuplicate(short, short.slice(1))).toBe(false);
  });

  it('splits scripts written without spaces into characters, a number kept whole', () => {
    const queues =
      '消息队列会一直保存每条消息，直到消费者确认为止。每个队列属于一个命名空间，队列名称在命名空间内必须唯一。生产者从不直接与消费者通信，它们把消息追加到队列中。';
    const schedules =
      '定时任务按照日历在您选择的区域运行容器镜像。计划使用常见的五字段语法，并按任务所在的时区计算，因此夏令时变化之后任务仍然按时运行。';
    const fingerprint = contentFingerprint(`${queues}保留7天。`);
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    // 7 and 14 are one word each: one word changed, not two.
    expect(nearDuplicate(fingerprint, contentFingerprint(`${queues}保留14天。`))).toBe(true);
    expect(nearDuplicate(fingerprint, contentFingerprint(`${schedules}保留7天。`), 12)).toBe(false);
  });
});

describe('nearDuplicate', () => {
  it('counts differing bits against the distance', () => {
    expect(nearDuplicate('0000000000000000', '0000000000000007')).toBe(true);
    expect(nearDuplicate('0000000000000000', '000000000000000f')).toBe(false);
    expect(nearDuplicate('8000000000000000', '0000000000000001', 2)).toBe(true);
    expect(nearDuplicate('ffffffffffffffff', '0000000000000000', 63)).toBe(false);
    expect(nearDuplicate('ffffffffffffffff', '0000000000000000', 64)).toBe(true);
  });

  it('compares anything that is not a fingerprint by equality', () => {
    expect(nearDuplicate('', '')).toBe(true);
    expect(nearDuplicate('zz', '0000000000000000')).toBe(false);
  });
});
