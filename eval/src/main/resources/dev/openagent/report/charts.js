// The report's charts, shared by report.html, the frontier's report.html and `openagent view` (one implementation): each
// draws into an ECharts instance; the heatmap and bars from metric objects shaped like summary.json's groups
// (success_rate, success_ci, scored, delta, ...), the frontier from its verdicts, the lines from learning-curve points.
const OpenAgentCharts = (function () {
  'use strict';
  const pct = v => v == null ? '–' : (100 * v).toFixed(1) + '%';
  const num = (v, d) => v == null ? '–' : Number(v).toFixed(d == null ? 2 : d);
  const signed = v => v == null ? '–' : (v >= 0 ? '+' : '') + (100 * v).toFixed(1) + ' pp';
  const ci = c => c ? '[' + pct(c[0]) + ', ' + pct(c[1]) + ']' : '–';
  // ECharts inserts a tooltip formatter's string as HTML: names from the store (an agent's, a shift's) are text.
  const esc = t => String(t).replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));

  /**
   * The tier × shift heatmap. shifts: [{label, tier}]; tiers: the rows; metricsFor(label): a shift's metrics or null;
   * metric: 'success', 'delta' or 'tool_error_rate'.
   */
  function heatmap(chart, shifts, tiers, metricsFor, metric) {
    const xs = shifts.map(s => s.label), ys = tiers;
    const data = [];
    shifts.forEach((s, xi) => {
      const m = metricsFor(s.label);
      if (!m) return;
      const v = metric === 'success' ? m.success_rate : metric === 'delta' ? (m.delta ? m.delta.absolute : null) : m.tool_error_rate;
      if (v == null) return;
      data.push({value: [xi, ys.indexOf(s.tier), v], m: m});
    });
    const delta = metric === 'delta';
    chart.setOption({
      animation: false,
      tooltip: {formatter: p => {
        const m = p.data.m, s = shifts[p.data.value[0]];
        return [esc(s.label) + ' (' + esc(s.tier) + ')', 'success ' + pct(m.success_rate) + ' ' + ci(m.success_ci) + ', n=' + m.scored,
          m.delta ? 'Δ ' + signed(m.delta.absolute) + ' vs static ' + pct(m.delta.static_rate) + ', p=' + num(m.delta.p_value, 4) : 'baseline',
          'tool errors ' + pct(m.tool_error_rate)].join('<br>');
      }},
      grid: {left: 130, right: 30, top: 20, bottom: 150},
      xAxis: {type: 'category', data: xs, axisLabel: {rotate: 35, interval: 0}, splitArea: {show: true}},
      yAxis: {type: 'category', data: ys, splitArea: {show: true}},
      visualMap: {min: delta ? -1 : 0, max: 1, calculable: true, orient: 'horizontal', left: 'center', bottom: 0,
        inRange: {color: metric === 'tool_error_rate' ? ['#1a9850', '#fee08b', '#d73027'] : ['#d73027', '#fee08b', '#1a9850']},
        formatter: v => delta ? signed(v) : pct(v)},
      series: [{type: 'heatmap', data: data, label: {show: true, formatter: p => delta ? signed(p.data.value[2]) : pct(p.data.value[2])},
        emphasis: {itemStyle: {borderColor: '#333', borderWidth: 1}}}]
    }, true);
  }

  /** Success per agent over categories (tiers or shifts); metricOf(agent, category): metrics or null. */
  function bars(chart, agents, cats, byTier, metricOf) {
    const series = agents.map(a => ({
      name: a, type: 'bar', barMaxWidth: 36,
      data: cats.map(c => {
        const m = metricOf(a, c);
        return m ? {value: m.success_rate, m: m} : {value: null};
      }),
      label: {show: cats.length * agents.length <= 24, position: 'top', formatter: p => pct(p.value)}
    }));
    chart.setOption({
      animation: false,
      legend: {top: 0},
      tooltip: {trigger: 'item', formatter: p => p.data && p.data.m
        ? esc(p.seriesName) + ' · ' + esc(p.name) + '<br>success ' + pct(p.data.m.success_rate) + ' ' + ci(p.data.m.success_ci) + ', n=' + p.data.m.scored
        + (p.data.m.delta ? '<br>Δ ' + signed(p.data.m.delta.absolute) : '') : esc(p.name)},
      grid: {left: 60, right: 20, top: 40, bottom: byTier ? 40 : 150},
      xAxis: {type: 'category', data: cats, axisLabel: {rotate: byTier ? 0 : 35, interval: 0}},
      yAxis: {type: 'value', min: 0, max: 1, axisLabel: {formatter: v => (100 * v) + '%'}},
      series: series
    }, true);
  }

  /**
   * A frontier: one row per shift, one column per severity, the drop in success (static minus shifted, same tasks) as
   * colour, its verdict as a mark, the breaking severity outlined. F: {rows, cols, data, drop} as
   * FrontierReport.chartData writes it; each datum [col, row, drop, breaks, tasks, decided, low, high, frontier].
   */
  function frontier(chart, F) {
    const data = F.data.map(d => ({value: d, itemStyle: d[8] ? {borderColor: '#111', borderWidth: 3} : undefined}));
    chart.setOption({
      animation: false,
      tooltip: {formatter: p => {
        const d = p.data.value;
        return esc(F.rows[d[1]]) + ', ' + esc(F.cols[d[0]]) + ': drop ' + num(d[2], 3) + ' [' + num(d[6], 3) + ', ' + num(d[7], 3) + ']'
          + (d[3] ? ' (breaks' : ' (holds') + (d[5] ? '' : ', by estimate') + '), ' + d[4] + ' tasks' + (d[8] ? '<br>the frontier: the weakest severity that breaks it' : '');
      }},
      grid: {left: 260, right: 40, top: 20, bottom: 80},
      xAxis: {type: 'category', data: F.cols, splitArea: {show: true}},
      yAxis: {type: 'category', data: F.rows, splitArea: {show: true}},
      visualMap: {dimension: 2, min: -0.2, max: 1, calculable: true, orient: 'horizontal', left: 'center', bottom: 10,
        inRange: {color: ['#c8e6c9', '#fffde7', '#ffcc80', '#e53935']}, text: ['drop 1', 'drop -0.2'], formatter: v => v.toFixed(2)},
      series: [{type: 'heatmap', data: data, encode: {x: 0, y: 1, value: 2},
        label: {show: true, formatter: p => p.data.value[2].toFixed(2) + ' ' + (p.data.value[3] ? '\u2717' : '\u2713')}}]
    }, true);
  }

  const PALETTE = ['#3b6fd8', '#d73027', '#1a9850', '#b8860b', '#7b3fa0', '#0f8b8d', '#e07b39', '#5d6679'];

  /**
   * A learning curve: one line per series over x (steps or episodes), and where a point has an interval, a bar from
   * its low to its high end. series: [{name, points: [[x, value, low, high], ...]}]; xName: what x counts; scale:
   * 'rate' (values are rates: percentages, the axis 0 to 1), 'log' (a loss falling by orders of magnitude) or 'linear'.
   */
  function lines(chart, series, xName, scale) {
    const percent = scale === 'rate';
    const fmt = v => percent ? pct(v) : num(v, 4);
    const out = [];
    series.forEach((s, i) => {
      const color = PALETTE[i % PALETTE.length];
      out.push({name: s.name, type: 'line', color: color, showSymbol: s.points.length <= 60, data: s.points.map(p => ({value: [p[0], p[1]], p: p}))});
      const bars = s.points.filter(p => p[2] != null && p[3] != null);
      if (bars.length === 0) return;
      out.push({name: s.name, type: 'custom', color: color, silent: true, data: bars.map(p => [p[0], p[2], p[3]]),
        renderItem: (params, api) => {
          const lo = api.coord([api.value(0), api.value(1)]), hi = api.coord([api.value(0), api.value(2)]);
          const style = {stroke: color, lineWidth: 1.5};
          return {type: 'group', children: [
            {type: 'line', shape: {x1: lo[0], y1: lo[1], x2: hi[0], y2: hi[1]}, style: style},
            {type: 'line', shape: {x1: lo[0] - 4, y1: lo[1], x2: lo[0] + 4, y2: lo[1]}, style: style},
            {type: 'line', shape: {x1: hi[0] - 4, y1: hi[1], x2: hi[0] + 4, y2: hi[1]}, style: style}]};
        }});
    });
    chart.setOption({
      animation: false,
      legend: {top: 0, data: series.map(s => s.name)},
      tooltip: {trigger: 'item', formatter: p => {
        const q = p.data && p.data.p;
        if (!q) return esc(p.seriesName);
        return esc(p.seriesName) + '<br>' + esc(xName) + ' ' + q[0] + ': ' + fmt(q[1]) + (q[2] != null ? ' [' + fmt(q[2]) + ', ' + fmt(q[3]) + ']' : '');
      }},
      grid: {left: 70, right: 30, top: 40, bottom: 50},
      xAxis: {type: 'value', name: xName, nameLocation: 'middle', nameGap: 28, minInterval: 1, min: 0, max: 'dataMax'},
      yAxis: percent ? {type: 'value', min: 0, max: 1, axisLabel: {formatter: v => (100 * v).toFixed(0) + '%'}}
        : scale === 'log' ? {type: 'log', logBase: 10} : {type: 'value', scale: true},
      series: out
    }, true);
  }

  return {heatmap: heatmap, bars: bars, frontier: frontier, lines: lines, pct: pct, num: num, signed: signed, ci: ci};
})();
