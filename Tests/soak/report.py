#!/usr/bin/env python3
"""The table of one soak direction (Tests/soak/soak.sh), from the JSON lines both sides
printed: per link, the values the sender counted as sent and what the receiver saw;
then the swift-att process's memory and descriptors.

    report.py peripheral SWIFT_OUT BUMBLE_CENTRALS_OUT
    report.py central SWIFT_OUT BUMBLE_PERIPHERALS_OUT

Exits 1 unless every stream is clean (from 1, nothing lost, repeated or reordered), its
last value is the last one sent, and neither side reported a failure.
"""
import json
import sys


def lines(path):
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
    return out


def tail(path, count=25):
    with open(path, errors='replace') as f:
        return ''.join(f.readlines()[-count:])


def main():
    role, swift_path, bumble_path = sys.argv[1:4]
    swift, bumble = lines(swift_path), lines(bumble_path)
    failures = []
    swift_done = next((l for l in swift if l.get('event') == 'done'), None)
    bumble_done = next((l for l in bumble if l.get('event') == 'done'), None)
    for name, done, path in (('swift-att', swift_done, swift_path), ('Bumble', bumble_done, bumble_path)):
        if done is None:
            failures.append(f'{name} printed no result')
            print(f'--- {name} ({path}), last lines:\n{tail(path)}', file=sys.stderr)
        else:
            failures += [f'{name}: {f}' for f in done.get('failures', [])]
    streams = [l for l in (swift if role == 'central' else bumble) if l.get('event') == 'stream']
    received = {l['stream']: l['check'] for l in streams}
    if role == 'peripheral':
        # One sender, every central gets the same sequence.
        sent = {addr.split('/')[0]: swift_done for addr in received} if swift_done else {}
    else:
        sent = {l['peripheral']: l for l in bumble if l.get('event') == 'sent'}
    links = sorted({key.split('/')[0] for key in received} | set(sent))

    print(f'{"link":<18} {"notified sent":>13} {"received":>9} {"indicated sent":>14} {"received":>9}'
          f' {"lost":>5} {"dup":>4} {"reord":>5}')
    total = 0
    for link in links:
        row = [link]
        bad = [0, 0, 0]
        for kind in ('notified', 'indicated'):
            check = received.get(f'{link}/{kind}')
            count = sent.get(link, {}).get(kind)
            row += [count if count is not None else '-', check['received'] if check else '-']
            if check is None or count is None:
                failures.append(f'{link}/{kind}: {"no stream" if check is None else "no sent count"}')
                continue
            total += check['received']
            bad = [bad[0] + check['lost'], bad[1] + check['duplicated'], bad[2] + check['reordered']]
            if check['first'] != 1 or check['last'] != count or check['received'] != count:
                failures.append(f'{link}/{kind}: sent 1…{count}, received {check["received"]} values '
                                f'{check["first"]}…{check["last"]}')
        print(f'{row[0]:<18} {row[1]:>13} {row[2]:>9} {row[3]:>14} {row[4]:>9} {bad[0]:>5} {bad[1]:>4} {bad[2]:>5}')
    print(f'{len(links)} links, {total} values received')
    if swift_done:
        d = swift_done
        print(f'swift-att {role}: RSS start {d["rssStartKiB"]} KiB, after warm-up {d["rssWarmKiB"]} KiB, '
              f'peak {d["rssPeakKiB"]} KiB, end {d["rssEndKiB"]} KiB '
              f'(after warm-up {d["rssEndKiB"] - d["rssWarmKiB"]:+d} KiB); '
              f'malloc in use {d["heapWarmKiB"]} KiB after warm-up, {d["heapEndKiB"]} KiB at the end; '
              f'open fds start {d["fdsStart"]}, after warm-up {d["fdsWarm"]}, end {d["fdsEnd"]}'
              + (f'; updates refused and retried {d["stalls"]}' if 'stalls' in d else ''))
    samples = [l for l in swift if l.get('event') == 'sample']
    if samples:
        # One figure a minute (every 10 s in a short run): flat, or still climbing?
        step = 6 if len(samples) > 12 else 1
        print('swift-att RSS KiB at ' + ', '.join(f'{l["seconds"]} s {l["rssKiB"]}' for l in samples[step - 1::step]))
    for failure in failures:
        print(f'FAIL {failure}', file=sys.stderr)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
