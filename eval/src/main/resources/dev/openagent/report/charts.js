// The report's charts, shared by report.html and `openagent view` (one implementation): each draws into an ECharts
// instance from metric objects shaped like summary.json's groups (success_rate, success_ci, scored, delta, ...).
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

  return {heatmap: heatmap, bars: bars, pct: pct, num: num, signed: signed, ci: ci};
})();
