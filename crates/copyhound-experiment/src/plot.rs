//! Log-log plots as self-contained SVG, drawn with `plotters`' SVG backend.
//!
//! The backend writes text as SVG `<text>` elements and lays labels out by
//! a character-count estimate, so neither building nor running needs a
//! font file; the browser that shows the SVG picks a sans-serif font.

use plotters::prelude::*;

use crate::ExperimentError;

/// Size of the drawing, in SVG pixels.
const SIZE: (u32, u32) = (900, 640);

/// The colours of successive series: dark enough on white, told apart
/// also in grey.
const PALETTE: [RGBColor; 4] = [
    RGBColor(31, 87, 163),
    RGBColor(200, 82, 0),
    RGBColor(26, 133, 76),
    RGBColor(120, 60, 150),
];

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A dot per point.
    Dots,
    /// A line through the points in order.
    Line,
}

/// One named series of `(x, y)` points, all positive.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub name: String,
    /// The points.
    pub points: Vec<(f64, f64)>,
    /// Dots or a line.
    pub mark: Mark,
    /// Index into the palette: a fitted line takes its data's colour.
    pub colour: usize,
}

/// A plot with logarithmic x and y axes.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLogPlot {
    /// The caption.
    pub title: String,
    /// The x-axis label.
    pub x_label: String,
    /// The y-axis label.
    pub y_label: String,
    /// The series, drawn in order.
    pub series: Vec<Series>,
}

impl LogLogPlot {
    /// The plot as an SVG document.
    ///
    /// Points that are not positive cannot be placed on a log axis and are
    /// left out.
    pub fn to_svg(&self) -> Result<String, ExperimentError> {
        let mut svg = String::new();
        self.draw(&mut svg)
            .map_err(|error| ExperimentError::Plot(error.to_string()))?;
        Ok(svg)
    }

    /// The axis ranges: the data's extent, widened a little so no point
    /// sits on the frame.
    fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        let points = self
            .series
            .iter()
            .flat_map(|s| &s.points)
            .filter(|(x, y)| *x > 0.0 && *y > 0.0);
        let mut x = (f64::INFINITY, f64::NEG_INFINITY);
        let mut y = (f64::INFINITY, f64::NEG_INFINITY);
        for &(px, py) in points {
            x = (x.0.min(px), x.1.max(px));
            y = (y.0.min(py), y.1.max(py));
        }
        let widen = |(low, high): (f64, f64)| {
            if low.is_finite() {
                (low / 1.5, high * 1.5)
            } else {
                (1.0, 10.0)
            }
        };
        (widen(x), widen(y))
    }

    fn draw(&self, svg: &mut String) -> Result<(), Box<dyn std::error::Error + '_>> {
        let ((x_low, x_high), (y_low, y_high)) = self.ranges();
        let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&self.title, ("sans-serif", 20))
            .margin(16)
            .margin_right(48)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d((x_low..x_high).log_scale(), (y_low..y_high).log_scale())?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style(("sans-serif", 14))
            .light_line_style(WHITE)
            .x_label_formatter(&|x| tick(*x))
            .y_label_formatter(&|y| tick(*y))
            .draw()?;
        for series in &self.series {
            let colour = PALETTE[series.colour % PALETTE.len()];
            let points = series
                .points
                .iter()
                .copied()
                .filter(|(x, y)| *x > 0.0 && *y > 0.0);
            match series.mark {
                Mark::Dots => {
                    chart
                        .draw_series(points.map(|p| Circle::new(p, 2, colour.filled())))?
                        .label(&series.name)
                        .legend(move |(x, y)| Circle::new((x + 10, y), 3, colour.filled()));
                }
                Mark::Line => {
                    chart
                        .draw_series(LineSeries::new(points, colour.stroke_width(2)))?
                        .label(&series.name)
                        .legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                        });
                }
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 14))
            .draw()?;
        root.present()?;
        Ok(())
    }
}

/// A tick label: whole numbers without decimals (ranks, frequencies).
fn tick(value: f64) -> String {
    if value >= 1.0 && (value - value.round()).abs() < 1e-9 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plot() -> LogLogPlot {
        LogLogPlot {
            title: "Frequency by rank".into(),
            x_label: "rank".into(),
            y_label: "frequency".into(),
            series: vec![
                Series {
                    name: "all hashes".into(),
                    points: vec![(1.0, 1000.0), (10.0, 200.0), (1000.0, 1.0)],
                    mark: Mark::Dots,
                    colour: 0,
                },
                Series {
                    name: "fit, slope -0.99".into(),
                    points: vec![(1.0, 1000.0), (1000.0, 1.0)],
                    mark: Mark::Line,
                    colour: 0,
                },
                Series {
                    name: "not drawable".into(),
                    points: vec![(0.0, 5.0), (3.0, -1.0)],
                    mark: Mark::Dots,
                    colour: 1,
                },
            ],
        }
    }

    #[test]
    fn the_svg_holds_the_title_labels_legend_and_every_drawable_point() {
        let svg = plot().to_svg().unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..100]);
        assert!(svg.trim_end().ends_with("</svg>"));
        for text in [
            "Frequency by rank",
            "rank",
            "frequency",
            "all hashes",
            "fit, slope -0.99",
        ] {
            assert!(svg.contains(text), "{text} missing");
        }
        // Three dots of the first series and one in its legend; none of
        // the undrawable series but its legend's.
        assert_eq!(svg.matches("<circle").count(), 3 + 1 + 1);
        // No reference to a font file or an outside resource.
        assert!(!svg.contains("url("));
        assert!(!svg.contains("href"));
    }

    #[test]
    fn an_empty_plot_still_draws_its_frame() {
        let svg = LogLogPlot {
            series: Vec::new(),
            ..plot()
        }
        .to_svg()
        .unwrap();
        assert!(svg.contains("Frequency by rank"));
    }
}
