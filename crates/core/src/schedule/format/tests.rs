use super::*;

const TEXT: &str = "\
# a ring of 3, scatter from 0
network: ring 3
ports: 1
collective: scatter 0
sends:
1 0 1 0 1   # first hop
2 0 2 0 2
";

proptest::proptest! {
    /// The sends put together by hand are the bytes `write!` gives, in
    /// both formats, for any numbers, items and chunks.
    #[test]
    fn sends_written_by_hand_are_the_formatted_bytes(
        fields in proptest::collection::vec(
            (proptest::prelude::any::<u32>(), proptest::prelude::any::<u32>(),
             proptest::prelude::any::<u32>(), proptest::prelude::any::<u32>(),
             proptest::prelude::any::<u32>(), 0u32..4),
            0..40,
        ),
    ) {
        let sends: Vec<TimedSend> = fields
            .iter()
            .map(|&(step, from, to, source, destination, kind)| TimedSend {
                step,
                from,
                to,
                source,
                destination: match kind {
                    0 => BROADCAST,
                    1 => item_destination(destination % MAX_CHUNKS),
                    _ => destination % (BROADCAST - MAX_CHUNKS + 1),
                },
            })
            .collect();
        for json in [false, true] {
            let mut expected = String::new();
            for (i, s) in sends.iter().enumerate() {
                let item = s.packet().is_broadcast();
                let destination = match (item, json) {
                    (true, true) => "\"*\"".to_string(),
                    (true, false) => "*".to_string(),
                    (false, _) => s.destination.to_string(),
                };
                let chunk = match (s.chunk(), json) {
                    (0, _) => String::new(),
                    (c, true) => format!(", \"chunk\": {c}"),
                    (c, false) => format!(" {c}"),
                };
                if json {
                    let sep = if i == 0 { "\n" } else { ",\n" };
                    expected += &format!(
                        "{sep}  {{\"step\": {}, \"from\": {}, \"to\": {}, \"source\": {}, \"destination\": {destination}{chunk}}}",
                        s.step, s.from, s.to, s.source
                    );
                } else {
                    expected += &format!(
                        "{} {} {} {} {destination}{chunk}\n",
                        s.step, s.from, s.to, s.source
                    );
                }
            }
            let mut writer = SendWriter { json, written: 0 };
            let mut out = Vec::new();
            writer.sends(&sends, &mut out).unwrap();
            proptest::prop_assert_eq!(String::from_utf8(out).unwrap(), expected);
        }
    }
}

#[test]
fn a_schedule_written_in_batches_is_the_schedule_written_whole() {
    let mut schedule = parse_text(TEXT).unwrap();
    schedule.sends.extend(schedule.sends.clone());
    schedule.sends[3].destination = BROADCAST;
    for json in [false, true] {
        let mut whole = Vec::new();
        let mut w = SendWriter::start(&schedule, json, &mut whole).unwrap();
        w.sends(&schedule.sends, &mut whole).unwrap();
        w.finish(&mut whole).unwrap();
        let mut batches = Vec::new();
        let mut w = SendWriter::start(&schedule, json, &mut batches).unwrap();
        for one in schedule.sends.chunks(1) {
            w.sends(one, &mut batches).unwrap();
        }
        w.finish(&mut batches).unwrap();
        assert_eq!(whole, batches);
        let read = parse(std::str::from_utf8(&batches).unwrap()).unwrap();
        assert_eq!(read, schedule, "json {json}");
    }
}

#[test]
fn text_reads_header_and_sends() {
    let s = parse_text(TEXT).unwrap();
    assert_eq!(s.network, Some(NetworkName::Ring(3)));
    assert_eq!(s.ports, Some(Ports::Limit(1)));
    assert_eq!(s.collective, Collective::Scatter(0));
    assert_eq!(s.sends.len(), 2);
    assert_eq!(
        s.sends[1],
        TimedSend {
            step: 2,
            from: 0,
            to: 2,
            source: 0,
            destination: 2
        }
    );
    assert!(is_schedule(TEXT));
    assert!(!is_schedule("group: <a | a^3 = 1>\ntable:\na\n"));
}

#[test]
fn text_and_json_convert_both_ways() {
    let mut s = parse_text(TEXT).unwrap();
    s.sends.push(TimedSend {
        step: 3,
        from: 1,
        to: 2,
        source: 1,
        destination: BROADCAST,
    });
    let json = to_json(&s);
    assert_eq!(parse_json(&json).unwrap(), s);
    assert_eq!(parse(&json).unwrap(), s);
    assert_eq!(parse_text(&to_text(&s)).unwrap(), s);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["ports"], 1);
    assert_eq!(value["sends"][2]["destination"], "*");
    assert_eq!(value["schema"], SCHEMA);
}

fn text_error(text: &str) -> ParseError {
    parse_text(text).unwrap_err()
}

#[test]
fn text_errors_point_at_the_fault() {
    let e = text_error("collective: mnb\nsends:\n1 0 x 0 *\n");
    assert_eq!((e.line, e.column), (3, 5));
    assert!(matches!(e.kind, ParseErrorKind::BadNumber(ref t, false) if t == "x"));
    let e = text_error("collective: mnb\nsends:\n1 0 1 0\n");
    assert_eq!(e.kind, ParseErrorKind::FieldCount(4));
    let e = text_error("collective: mnb\nsends:\n1 0 1 0 * 0 9\n");
    assert_eq!(
        (e.line, e.column, e.kind.clone()),
        (3, 13, ParseErrorKind::FieldCount(7))
    );
    // A chunk beyond the header's, or on a personalised packet.
    let e = text_error("collective: mnb\nchunks: 2\nsends:\n1 0 1 0 * 2\n");
    assert_eq!(
        (e.line, e.column, e.kind),
        (4, 11, ParseErrorKind::BadChunk(2))
    );
    let e = text_error("collective: scatter 0\nsends:\n1 0 1 0 1 0\n");
    assert_eq!(
        (e.line, e.column, e.kind),
        (3, 11, ParseErrorKind::BadChunk(0))
    );
    let e = text_error("collective: scatter 0\nchunks: 2\nsends:\n");
    assert_eq!((e.line, e.column), (2, 9));
    let ok = parse_text("collective: allgather\nchunks: 3\nsends:\n1 0 1 0 * 2\n").unwrap();
    assert_eq!(ok.collective.chunks(), 3);
    assert_eq!(ok.sends[0].chunk(), 2);
    assert_eq!(
        to_text(&ok),
        "collective: allgather\nchunks: 3\nsends:\n1 0 1 0 * 2\n"
    );
    let json = to_json(&ok);
    assert!(
        json.contains("\"chunks\": 3") && json.contains("\"chunk\": 2"),
        "{json}"
    );
    assert_eq!(parse_json(&json).unwrap(), ok);
    let e = text_error("colour: red\nsends:\n");
    assert_eq!((e.line, e.column), (1, 1));
    assert!(matches!(e.kind, ParseErrorKind::UnknownKey(_)));
    let e = text_error("network: ring 1\n");
    assert_eq!((e.line, e.column), (1, 10));
    assert!(matches!(e.kind, ParseErrorKind::Network(_)));
    let e = text_error("collective: mnb\n");
    assert_eq!(e.kind, ParseErrorKind::NoSends);
    let e = text_error("sends:\n");
    assert_eq!(e.kind, ParseErrorKind::NoCollective);
    let e = text_error("ports: all\nports: 2\ncollective: mnb\nsends:\n");
    assert_eq!(e.line, 2);
    assert!(matches!(e.kind, ParseErrorKind::DuplicateKey(_)));
    let e = text_error("collective: scatter 0\nsends:\n1 0 1 0 -1\n");
    assert!(matches!(e.kind, ParseErrorKind::BadNumber(_, true)));
    let e = text_error("collective: scatter 0\nsends:\n1 0 1 0 4294967295\n");
    assert!(matches!(e.kind, ParseErrorKind::BadNumber(_, true)));
    let rendered = e.render(
        "s.txt",
        "collective: scatter 0\nsends:\n1 0 1 0 4294967295\n",
    );
    assert_eq!(
        rendered,
        "s.txt:3:9: error: `4294967295` is not a number or `*`\n 3 | 1 0 1 0 4294967295\n   |         ^^^^^^^^^^\n"
    );
}

#[test]
fn json_errors_have_line_and_column() {
    let src = "{\"schema\": \"txverify-schedule/1\",\n \"collective\": \"mnb\",\n \"sends\": [{\"step\": 1, \"from\": 0, \"to\": 1, \"source\": 0, \"destination\": \"+\"}]}";
    let e = parse_json(src).unwrap_err();
    assert_eq!(e.line, 3);
    assert!(matches!(e.kind, ParseErrorKind::Json(_)));
    let e = parse("{\"schema\": \"other/1\", \"collective\": \"mnb\", \"sends\": []}").unwrap_err();
    assert!(e.to_string().contains("other/1"), "{e}");
    let e = parse("{\"schema\": \"txverify-schedule/1\", \"network\": \"ring 0\", \"collective\": \"mnb\", \"sends\": []}").unwrap_err();
    assert!(e.to_string().contains("ring"), "{e}");
    let e = parse("{\"schema\": \"txverify-schedule/1\", \"ports\": 0, \"collective\": \"mnb\", \"sends\": []}").unwrap_err();
    assert!(e.to_string().contains("ports"), "{e}");
    let e = parse("{\"schema\": \"txverify-schedule/1\", \"collective\": \"mnb\"}").unwrap_err();
    assert!(e.to_string().contains("sends"), "{e}");
    // Extra fields are allowed, at the top and in sends.
    let ok = parse("{\"schema\": \"txverify-schedule/1\", \"by\": \"hand\", \"collective\": \"mnb\", \"sends\": [{\"step\": 1, \"from\": 0, \"to\": 1, \"source\": 0, \"destination\": \"*\", \"note\": 1}]}").unwrap();
    assert_eq!(ok.sends[0].destination, BROADCAST);
}

/// The digits written two at a time are the number's decimal digits, at
/// every length (the proptest above draws mostly ten-digit numbers).
#[test]
fn numbers_are_written_as_their_decimal_digits() {
    let around_powers = (0..10).flat_map(|k| {
        let p = 10u32.pow(k);
        [p - 1, p, p + 1]
    });
    for x in (0..2000u32).chain(around_powers).chain([u32::MAX]) {
        let mut lines = Lines::with_room_for(1);
        lines.decimal(x);
        assert_eq!(&lines.bytes[..lines.len], x.to_string().as_bytes());
    }
}
