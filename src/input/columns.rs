//! Arrow columns as tag text, the way PGN writes tags: integers as
//! digits, a rating stored as a float without `.0`, a date as `YYYY.MM.DD`,
//! a time as `HH:MM:SS`. Shared by the Parquet input and the Python
//! package's `audit_arrow`, so that both read the same rows the same way.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef};
use arrow_schema::{DataType, TimeUnit};

/// A column is read as a tag when its values can be written as text.
pub fn is_tag_type(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Int8
            | DataType::Int16
            | DataType::Int32
            | DataType::Int64
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32
            | DataType::UInt64
            | DataType::Float32
            | DataType::Float64
            | DataType::Date32
            | DataType::Time32(_)
            | DataType::Time64(_)
    )
}

/// One value as tag text; `None` for a null.
pub fn cell(column: &ArrayRef, row: usize) -> Option<String> {
    if column.is_null(row) {
        return None;
    }
    Some(match column.data_type() {
        DataType::Utf8 => column.as_string::<i32>().value(row).to_string(),
        DataType::LargeUtf8 => column.as_string::<i64>().value(row).to_string(),
        DataType::Utf8View => column.as_string_view().value(row).to_string(),
        DataType::Int8 => column.as_primitive::<Int8Type>().value(row).to_string(),
        DataType::Int16 => column.as_primitive::<Int16Type>().value(row).to_string(),
        DataType::Int32 => column.as_primitive::<Int32Type>().value(row).to_string(),
        DataType::Int64 => column.as_primitive::<Int64Type>().value(row).to_string(),
        DataType::UInt8 => column.as_primitive::<UInt8Type>().value(row).to_string(),
        DataType::UInt16 => column.as_primitive::<UInt16Type>().value(row).to_string(),
        DataType::UInt32 => column.as_primitive::<UInt32Type>().value(row).to_string(),
        DataType::UInt64 => column.as_primitive::<UInt64Type>().value(row).to_string(),
        DataType::Float32 => number(f64::from(
            column
                .as_primitive::<arrow_array::types::Float32Type>()
                .value(row),
        )),
        DataType::Float64 => number(
            column
                .as_primitive::<arrow_array::types::Float64Type>()
                .value(row),
        ),
        DataType::Date32 => date(
            column
                .as_primitive::<arrow_array::types::Date32Type>()
                .value(row),
        ),
        DataType::Time32(unit) => {
            let v = i64::from(match unit {
                TimeUnit::Second => column
                    .as_primitive::<arrow_array::types::Time32SecondType>()
                    .value(row),
                _ => {
                    column
                        .as_primitive::<arrow_array::types::Time32MillisecondType>()
                        .value(row)
                        / 1000
                }
            });
            time(v)
        }
        DataType::Time64(unit) => {
            let per_second = if *unit == TimeUnit::Nanosecond {
                1_000_000_000
            } else {
                1_000_000
            };
            let v = match unit {
                TimeUnit::Nanosecond => column
                    .as_primitive::<arrow_array::types::Time64NanosecondType>()
                    .value(row),
                _ => column
                    .as_primitive::<arrow_array::types::Time64MicrosecondType>()
                    .value(row),
            };
            time(v / per_second)
        }
        _ => return None,
    })
}

/// A number as a tag writes it: `1500`, not `1500.0` (ratings stored as
/// floats), else as Rust prints it.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        v.to_string()
    }
}

/// Days since 1970-01-01 as a PGN date, `YYYY.MM.DD` (the civil calendar,
/// after Howard Hinnant's `civil_from_days`).
fn date(days: i32) -> String {
    let z = i64::from(days) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Seconds since midnight as `HH:MM:SS`.
fn time(seconds: i64) -> String {
    let s = seconds.rem_euclid(86_400);
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times_as_pgn_writes_them() {
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(15_706), "2013.01.01");
        assert_eq!(date(19_782), "2024.02.29");
        assert_eq!(date(-1), "1969.12.31");
        assert_eq!(time(0), "00:00:00");
        assert_eq!(time(3_723), "01:02:03");
        assert_eq!(number(1500.0), "1500");
        assert_eq!(number(-7.0), "-7");
    }
}
