/*
 * The job list's batch actions (new: the Java consoles have none): start,
 * stop, run once and delete for the selected jobs. On 2.x a check box on
 * every row and one for the visible page select them (XJ.jobCheckboxes);
 * on 3.x the list's own row selection does.
 *
 * There is no batch endpoint: each job is one call to the endpoint of its
 * single action (XJ.paths.jobStart, jobStop, jobRemove, /jobinfo/trigger),
 * one after the other, so the server applies its usual checks job by job.
 * Every job gets its own outcome: a refusal for one (removed meanwhile,
 * another group's job) does not stop the others. The summary is a toast
 * when every call succeeded, else a dialog naming each failed job with the
 * server's message.
 *
 * It also carries the words of the batch, export and import controls and of
 * the job form's time zone field, which the Java bundles do not have (as
 * cron-builder.js does): XJ.jobWord(key, vars) and the .xj-word /
 * .xj-word-label elements of the page.
 *
 * XJ.jobBatch({selected() -> rows, watch(onChange), reload(resetPaging),
 *   runOnce(rows)}) -> { run(label, path, rows, dataOf, reloads) }
 * XJ.jobCheckboxes($table, table) -> {selected, watch} (2.x, DataTables)
 */
(function (window, $, XJ) {
  'use strict';

  var WORDS = {
    en: {
      selectAll: 'Select the jobs on this page', select: 'Select job {id}', selected: '{n} selected',
      batch: 'Batch', transfer: 'Export / Import',
      confirm: '{action} the selected jobs ({n})?', done: '{action}: {n} succeeded',
      failed: '{action}: {ok} succeeded, {fail} failed', batchRun: 'Runs each of the {n} selected jobs once.',
      ownParam: 'Each job\'s own parameter',
      exportGroup: 'Export executor', exportAll: 'Export all', import: 'Import', importTitle: 'Import jobs',
      file: 'File', document: 'Document', paste: 'Choose an export file, or paste its JSON here',
      mode: 'Mode', merge: 'Merge: create what is missing, leave existing executors and jobs as they are',
      overwrite: 'Overwrite: also update existing executors and jobs to the document',
      dryRun: 'Dry run', doImport: 'Import', kind: 'Type', name: 'Name', outcome: 'Result', fields: 'Fields that differ',
      created: 'created', updated: 'updated', unchanged: 'unchanged', kept: 'kept',
      dryRunDone: 'Dry run, nothing was written. The import would make these changes:',
      imported: 'Imported', empty: 'The document holds no executors or jobs.',
      noDocument: 'Choose a file or paste a document first.', unreadable: 'The file could not be read.',
      zone: 'Time Zone', zoneDefault: 'The admin\'s zone ({zone}), or an IANA zone like America/New_York'
    },
    zh_CN: {
      selectAll: '选择本页的任务', select: '选择任务 {id}', selected: '已选 {n} 个',
      batch: '批量操作', transfer: '导入导出',
      confirm: '确定{action}所选的 {n} 个任务？', done: '{action}：{n} 个全部成功',
      failed: '{action}：{ok} 个成功，{fail} 个失败', batchRun: '所选的 {n} 个任务各执行一次。',
      ownParam: '使用各任务自己的任务参数',
      exportGroup: '导出执行器', exportAll: '全部导出', import: '导入', importTitle: '导入任务',
      file: '文件', document: '内容', paste: '选择导出的文件，或在此粘贴其 JSON',
      mode: '模式', merge: '合并：创建缺少的执行器和任务，已有的保持不变',
      overwrite: '覆盖：同时把已有的执行器和任务更新为文件中的内容',
      dryRun: '试运行', doImport: '导入', kind: '类型', name: '名称', outcome: '结果', fields: '不同的字段',
      created: '新建', updated: '更新', unchanged: '无变化', kept: '保留',
      dryRunDone: '试运行，未写入任何内容。导入将做以下更改：',
      imported: '导入完成', empty: '文件中没有执行器或任务。',
      noDocument: '请先选择文件或粘贴内容。', unreadable: '无法读取该文件。',
      zone: '时区', zoneDefault: '调度中心的时区（{zone}），或 IANA 时区，如 Asia/Shanghai'
    },
    zh_TC: {
      selectAll: '選擇本頁的任務', select: '選擇任務 {id}', selected: '已選 {n} 個',
      batch: '批次操作', transfer: '匯入匯出',
      confirm: '確定{action}所選的 {n} 個任務？', done: '{action}：{n} 個全部成功',
      failed: '{action}：{ok} 個成功，{fail} 個失敗', batchRun: '所選的 {n} 個任務各執行一次。',
      ownParam: '使用各任務自己的任務參數',
      exportGroup: '匯出執行器', exportAll: '全部匯出', import: '匯入', importTitle: '匯入任務',
      file: '檔案', document: '內容', paste: '選擇匯出的檔案，或在此貼上其 JSON',
      mode: '模式', merge: '合併：建立缺少的執行器和任務，已有的保持不變',
      overwrite: '覆寫：同時把已有的執行器和任務更新為檔案中的內容',
      dryRun: '試執行', doImport: '匯入', kind: '類型', name: '名稱', outcome: '結果', fields: '不同的欄位',
      created: '新建', updated: '更新', unchanged: '無變化', kept: '保留',
      dryRunDone: '試執行，未寫入任何內容。匯入將做以下變更：',
      imported: '匯入完成', empty: '檔案中沒有執行器或任務。',
      noDocument: '請先選擇檔案或貼上內容。', unreadable: '無法讀取該檔案。',
      zone: '時區', zoneDefault: '調度中心的時區（{zone}），或 IANA 時區，如 Asia/Taipei'
    }
  };

  var words = WORDS[XJ.lang] || WORDS.en;

  /** jobWord is the page's own text of key, with {name} replaced from vars. */
  XJ.jobWord = function (key, vars) {
    var s = Object.prototype.hasOwnProperty.call(words, key) ? words[key] : key;
    return s.replace(/\{(\w+)\}/g, function (all, name) {
      return vars && Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : all;
    });
  };

  $(function () {
    $('.xj-word').each(function () {
      $(this).text(XJ.jobWord($(this).attr('data-word')));
    });
    $('.xj-word-label').each(function () {
      var w = XJ.jobWord($(this).attr('data-word'));
      $(this).attr({ 'aria-label': w, title: w });
    });
  });

  /**
   * inTurn calls send(row) for each row, the next one when the previous
   * answered, and resolves with [{row, ok, msg}] in the rows' order.
   */
  function inTurn(rows, send) {
    var d = $.Deferred();
    var results = [];
    var i = 0;
    function next() {
      if (i >= rows.length) {
        d.resolve(results);
        return;
      }
      var row = rows[i++];
      send(row).done(function (answer) {
        var ok = XJ.ok(answer);
        results.push({ row: row, ok: ok, msg: ok ? '' : ((answer && answer.msg) || XJ.t('system_fail')) });
      }).fail(function (message) {
        results.push({ row: row, ok: false, msg: message });
      }).always(next);
    }
    next();
    return d.promise();
  }

  function jobName(row) {
    return '#' + row.id + ' ' + (row.jobDesc || '');
  }

  /**
   * jobCheckboxes is the 2.x list's selection: the check box of every row
   * (input.xj-select) and #xj-select-all for the visible page. A redraw
   * (paging, filters, a reload) replaces the rows: nothing stays checked.
   */
  XJ.jobCheckboxes = function ($table, table) {
    var $all = $('#xj-select-all');
    var listeners = [];
    function boxes() {
      return $table.find('tbody input.xj-select');
    }
    function changed() {
      var n = boxes().filter(':checked').length;
      var total = boxes().length;
      $all.prop({ checked: total > 0 && n === total, indeterminate: n > 0 && n < total });
      $.each(listeners, function (_, f) { f(); });
    }
    $all.on('change', function () {
      boxes().prop('checked', this.checked);
      changed();
    });
    $table.on('change', 'tbody input.xj-select', changed);
    $table.on('draw.dt', changed);
    return {
      selected: function () {
        var rows = [];
        boxes().filter(':checked').each(function () {
          rows.push(table.row($(this).closest('tr')).data());
        });
        return rows;
      },
      watch: function (f) { listeners.push(f); }
    };
  };

  XJ.jobBatch = function (opts) {
    var selected = opts.selected;
    var $buttons = $('#xj-batch-start, #xj-batch-stop, #xj-batch-run, #xj-batch-delete');
    var busy = false;

    function update() {
      var n = selected().length;
      $buttons.prop('disabled', busy || n === 0);
      $('#xj-selected').text(n ? XJ.jobWord('selected', { n: n }) : '');
    }
    opts.watch(update);
    update();

    function report(label, results) {
      var failed = results.filter(function (r) { return !r.ok; });
      if (!failed.length) {
        XJ.toast(XJ.jobWord('done', { action: label, n: results.length }));
        return;
      }
      var $box = $('<div class="xj-batch-report"></div>');
      $('<p></p>').text(XJ.jobWord('failed', { action: label, ok: results.length - failed.length, fail: failed.length })).appendTo($box);
      var $ul = $('<ul class="xj-batch-failures"></ul>').appendTo($box);
      $.each(failed, function (_, r) {
        $('<li></li>').text(jobName(r.row) + ': ' + r.msg).appendTo($ul);
      });
      XJ.alert($box, label);
    }

    /**
     * run posts dataOf(row) to path for each row in turn, then shows the
     * summary (and reloads the list when reloads is true).
     */
    function run(label, path, rows, dataOf, reloads) {
      busy = true;
      update();
      return inTurn(rows, function (row) { return XJ.post(path, dataOf(row)); }).done(function (results) {
        busy = false;
        update();
        if (reloads) {
          opts.reload(false);
        }
        report(label, results);
      });
    }

    function confirmed(label, path) {
      var rows = selected();
      if (!rows.length || busy) {
        return;
      }
      var $q = $('<div></div>');
      $('<p></p>').text(XJ.jobWord('confirm', { action: label, n: rows.length })).appendTo($q);
      var $ul = $('<ul class="xj-batch-jobs"></ul>').appendTo($q);
      $.each(rows, function (_, row) {
        $('<li></li>').text(jobName(row)).appendTo($ul);
      });
      XJ.confirm($q).done(function () {
        run(label, path, rows, function (row) { return XJ.jobRef(row.id); }, true);
      });
    }

    $('#xj-batch-start').on('click', function () { confirmed(XJ.t('jobinfo_opt_start'), XJ.paths.jobStart); });
    $('#xj-batch-stop').on('click', function () { confirmed(XJ.t('jobinfo_opt_stop'), XJ.paths.jobStop); });
    $('#xj-batch-delete').on('click', function () { confirmed(XJ.t('system_opt_del'), XJ.paths.jobRemove); });
    $('#xj-batch-run').on('click', function () {
      var rows = selected();
      if (rows.length && !busy) {
        opts.runOnce(rows);
      }
    });

    return { run: run };
  };
})(window, window.jQuery, window.XJ);
