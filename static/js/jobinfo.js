/*
 * Job list (console.md §5): server-side list over POST /jobinfo/pageList,
 * per-row actions (run once, query log, registry info, next trigger times,
 * GLUE IDE, start/stop, edit, delete, copy) and the add/edit form; the
 * batch actions on the checked rows (jobinfo-batch.js) and export/import
 * (jobinfo-transfer.js) are ours.
 */
(function (window, $, XJ) {
  'use strict';

  var model = XJ.data || {};
  var GLUE_REMARK_INIT = 'GLUE代码初始化'; // what the Java form sends on add, whatever the language

  function titleOf(options, name) {
    for (var i = 0; i < (options || []).length; i++) {
      if (options[i].name === name) {
        return options[i].title;
      }
    }
    return name;
  }

  // Starting sources of a new GLUE job, per type; the comments use the
  // bundle's words for the arguments each script receives.
  function glueTemplate(type) {
    var loc = XJ.t('jobinfo_script_location');
    var param = XJ.t('jobinfo_field_executorparam');
    var idx = XJ.t('jobinfo_shard_index');
    var total = XJ.t('jobinfo_shard_total');
    switch (type) {
      case 'GLUE_GROOVY':
        return [
          'package com.xxl.job.service.handler;',
          '',
          'import com.xxl.job.core.context.XxlJobHelper;',
          'import com.xxl.job.core.handler.IJobHandler;',
          '',
          'public class DemoGlueJobHandler extends IJobHandler {',
          '',
          '\t@Override',
          '\tpublic void execute() throws Exception {',
          '\t\tXxlJobHelper.log("XXL-JOB, Hello World.");',
          '\t}',
          '',
          '}',
          ''
        ].join('\n');
      case 'GLUE_SHELL':
        return [
          '#!/bin/bash',
          'echo "xxl-job: hello shell"',
          '',
          'echo "' + loc + ': $0"',
          'echo "' + param + ': $1"',
          'echo "' + idx + ' = $2"',
          'echo "' + total + ' = $3"',
          '',
          'exit 0',
          ''
        ].join('\n');
      case 'GLUE_PYTHON':
        return [
          '#!/usr/bin/python',
          '# -*- coding: UTF-8 -*-',
          'import sys',
          '',
          'print("xxl-job: hello python")',
          '',
          'print("' + loc + ':", sys.argv[0])',
          'print("' + param + ':", sys.argv[1])',
          'print("' + idx + ' =", sys.argv[2])',
          'print("' + total + ' =", sys.argv[3])',
          '',
          'exit(0)',
          ''
        ].join('\n');
      case 'GLUE_PHP':
        return [
          '<?php',
          '',
          '    echo "xxl-job: hello php  \\n";',
          '',
          '    echo "' + loc + ': $argv[0]  \\n";',
          '    echo "' + param + ': $argv[1]  \\n";',
          '    echo "' + idx + ' = $argv[2]  \\n";',
          '    echo "' + total + ' = $argv[3]  \\n";',
          '',
          '    exit(0);',
          '',
          '?>',
          ''
        ].join('\n');
      case 'GLUE_NODEJS':
        return [
          '#!/usr/bin/env node',
          'console.log("xxl-job: hello nodejs")',
          '',
          'var arguments = process.argv',
          '',
          'console.log("' + loc + ': " + arguments[1])',
          'console.log("' + param + ': " + arguments[2])',
          'console.log("' + idx + ' = " + arguments[3])',
          'console.log("' + total + ' = " + arguments[4])',
          '',
          'process.exit(0)',
          ''
        ].join('\n');
      case 'GLUE_POWERSHELL':
        return [
          'Write-Host "xxl-job: hello powershell"',
          '',
          'Write-Host "' + loc + ': " $MyInvocation.MyCommand.Definition',
          'Write-Host "' + param + ': "',
          '\tif ($args.Count -gt 2) { $args[0..($args.Count-3)] }',
          'Write-Host "' + idx + ' = " $args[$args.Count-2]',
          'Write-Host "' + total + ' = " $args[$args.Count-1]',
          '',
          'Write-Host "Good bye!"',
          'exit 0',
          ''
        ].join('\n');
    }
    return '';
  }

  $(function () {
    var $table = $('#xj-job-list');
    var table = $table.DataTable({
      processing: true,
      serverSide: true,
      searching: false,
      ordering: false,
      deferRender: true,
      autoWidth: false,
      language: XJ.dataTableLanguage(),
      ajax: XJ.listSource('/jobinfo/pageList', function () {
        return {
          jobGroup: $('#xj-filter-group').val(),
          triggerStatus: $('#xj-filter-status').val(),
          jobDesc: $('#xj-filter-desc').val(),
          executorHandler: $('#xj-filter-handler').val(),
          author: $('#xj-filter-author').val()
        };
      }),
      columns: [
        XJ.domColumn(function (row) {
          return $('<input type="checkbox" class="xj-select">').val(String(row.id))
            .attr('aria-label', XJ.jobWord('select', { id: row.id }));
        }, { width: '3%', className: 'xj-select-col' }),
        XJ.textColumn('id', { width: '7%' }),
        XJ.textColumn('jobDesc', { width: '22%' }),
        XJ.domColumn(function (row) {
          return document.createTextNode(row.scheduleConf ? row.scheduleType + '：' + row.scheduleConf : (row.scheduleType || ''));
        }, { width: '15%' }),
        XJ.domColumn(function (row) {
          var title = titleOf(model.glueTypes, row.glueType);
          return document.createTextNode(row.executorHandler ? title + '：' + row.executorHandler : title);
        }, { width: '20%' }),
        XJ.textColumn('author', { width: '10%' }),
        XJ.domColumn(function (row) {
          return row.triggerStatus === 1
            ? $('<small class="label label-success">RUNNING</small>')
            : $('<small class="label label-default">STOP</small>');
        }, { width: '8%' }),
        XJ.domColumn(function (row) {
          var items = [
            { label: XJ.t('jobinfo_opt_run'), cls: 'xj-run' },
            { label: XJ.t('jobinfo_opt_log'), href: XJ.url('/joblog?jobId=' + encodeURIComponent(row.id)) },
            { label: XJ.t('jobinfo_opt_registryinfo'), cls: 'xj-registry' }
          ];
          if (row.scheduleType === 'CRON' || row.scheduleType === 'FIX_RATE') {
            items.push({ label: XJ.t('jobinfo_opt_next_time'), cls: 'xj-next-time' });
          }
          items.push('divider');
          if (row.glueType !== 'BEAN') {
            items.push({ label: 'GLUE IDE', href: XJ.url('/jobcode?jobId=' + encodeURIComponent(row.id)), target: '_blank' });
            items.push('divider');
          }
          items.push(row.triggerStatus === 1
            ? { label: XJ.t('jobinfo_opt_stop'), cls: 'xj-stop' }
            : { label: XJ.t('jobinfo_opt_start'), cls: 'xj-start' });
          items.push({ label: XJ.t('system_opt_edit'), cls: 'xj-edit' });
          items.push({ label: XJ.t('system_opt_del'), cls: 'xj-delete' });
          items.push({ label: XJ.t('system_opt_copy'), cls: 'xj-copy' });
          return XJ.dropdown(items);
        }, { width: '15%' })
      ]
    });

    function rowOf(el) {
      return table.row($(el).closest('tr')).data();
    }

    function reload(resetPaging) {
      table.ajax.reload(null, resetPaging !== false);
    }

    $('#xj-search').on('click', function () { reload(true); });
    $('#xj-filter-group, #xj-filter-status').on('change', function () { reload(true); });
    $('.xj-filters input').on('keydown', function (e) {
      if (e.key === 'Enter') {
        reload(true);
      }
    });

    // start / stop / delete: confirm, then POST {id}
    function simpleAction(el, path, label) {
      var row = rowOf(el);
      XJ.confirm(XJ.t('system_ok') + label + '?').done(function () {
        XJ.result(XJ.post(path, { id: row.id }), label + XJ.t('system_success'), label + XJ.t('system_fail'))
          .done(function () { reload(false); });
      });
    }
    $table.on('click', '.xj-start', function (e) {
      e.preventDefault();
      simpleAction(this, '/jobinfo/start', XJ.t('jobinfo_opt_start'));
    });
    $table.on('click', '.xj-stop', function (e) {
      e.preventDefault();
      simpleAction(this, '/jobinfo/stop', XJ.t('jobinfo_opt_stop'));
    });
    $table.on('click', '.xj-delete', function (e) {
      e.preventDefault();
      simpleAction(this, '/jobinfo/remove', XJ.t('system_opt_del'));
    });

    // run once: one job (its row's action), or the checked jobs (batch),
    // which either keep their own parameters or all get the one given
    var $trigger = $('#xj-trigger-modal');
    var $triggerForm = $trigger.find('form');
    var $ownParam = $triggerForm.find('[name=ownParam]');
    var triggerRows = null; // the checked rows while the form is a batch's
    function syncOwnParam() {
      $triggerForm.find('[name=executorParam]').prop('disabled', triggerRows !== null && $ownParam.prop('checked'));
    }
    $ownParam.on('change', syncOwnParam);
    $table.on('click', '.xj-run', function (e) {
      e.preventDefault();
      var row = rowOf(this);
      triggerRows = null;
      $triggerForm[0].reset();
      $trigger.find('.xj-batch-only').prop('hidden', true);
      syncOwnParam();
      $triggerForm.find('[name=id]').val(row.id);
      $triggerForm.find('[name=executorParam]').val(row.executorParam || '');
      XJ.showModal($trigger);
    });
    var batch = XJ.jobBatch({
      $table: $table,
      table: table,
      reload: reload,
      runOnce: function (rows) {
        triggerRows = rows;
        $triggerForm[0].reset();
        $trigger.find('.xj-batch-only').prop('hidden', false);
        $trigger.find('.xj-batch-note').text(XJ.jobWord('batchRun', { n: rows.length }));
        syncOwnParam();
        XJ.showModal($trigger);
      }
    });
    XJ.jobTransfer({ reload: reload });
    $triggerForm.on('submit', function (e) {
      e.preventDefault();
      if (triggerRows !== null) {
        var own = $ownParam.prop('checked');
        var param = $triggerForm.find('[name=executorParam]').val();
        var addressList = $triggerForm.find('[name=addressList]').val();
        var rows = triggerRows;
        triggerRows = null;
        $trigger.modal('hide');
        batch.run(XJ.t('jobinfo_opt_run'), '/jobinfo/trigger', rows, function (row) {
          return { id: row.id, executorParam: own ? (row.executorParam || '') : param, addressList: addressList };
        }, false);
        return;
      }
      XJ.result(XJ.post('/jobinfo/trigger', {
        id: $triggerForm.find('[name=id]').val(),
        executorParam: $triggerForm.find('[name=executorParam]').val(),
        addressList: $triggerForm.find('[name=addressList]').val()
      }), XJ.t('jobinfo_opt_run') + XJ.t('system_success'), XJ.t('jobinfo_opt_run') + XJ.t('system_fail'))
        .done(function () { $trigger.modal('hide'); });
    });

    // registry info: the addresses of the job's executor group
    $table.on('click', '.xj-registry', function (e) {
      e.preventDefault();
      var row = rowOf(this);
      XJ.post('/jobgroup/loadById', { id: row.jobGroup }).done(function (answer) {
        if (!XJ.ok(answer)) {
          XJ.alert((answer && answer.msg) || XJ.t('system_fail'), XJ.t('jobinfo_opt_registryinfo'));
          return;
        }
        var list = (answer.content && answer.content.registryList) || [];
        var $ol = $('<ol class="xj-address-list"></ol>');
        $.each(list, function (_, address) {
          $('<li></li>').append($('<span class="badge bg-green"></span>').text(address)).appendTo($ol);
        });
        XJ.alert(list.length ? $ol : XJ.t('system_empty'), XJ.t('jobinfo_opt_registryinfo'));
      }).fail(function (message) { XJ.alert(message); });
    });

    // next trigger times
    $table.on('click', '.xj-next-time', function (e) {
      e.preventDefault();
      var row = rowOf(this);
      XJ.post('/jobinfo/nextTriggerTime', { scheduleType: row.scheduleType, scheduleConf: row.scheduleConf })
        .done(function (answer) {
          if (!XJ.ok(answer)) {
            XJ.alert((answer && answer.msg) || XJ.t('system_fail'), XJ.t('jobinfo_opt_next_time'));
            return;
          }
          var $ul = $('<ul class="list-unstyled text-center xj-next-times"></ul>');
          $.each(answer.content || [], function (_, t) {
            $('<li></li>').text(t).appendTo($ul);
          });
          XJ.alert((answer.content || []).length ? $ul : XJ.t('system_empty'), XJ.t('jobinfo_opt_next_time'));
        }).fail(function (message) { XJ.alert(message); });
    });

    // ------------------------------------------------------------ add / edit / copy

    var $modal = $('#xj-job-modal');
    var $form = $modal.find('form');
    var field = function (name) { return $form.find('[name=' + name + ']'); };
    var mode = 'add';
    var cron = XJ.cronBuilder($form.find('.xj-cron-builder'), field('scheduleConfCron'));

    function showScheduleConf() {
      var type = field('scheduleType').val();
      $form.find('.xj-sconf').hide();
      $form.find('.xj-sconf-' + type).show();
    }
    field('scheduleType').on('change', showScheduleConf);

    $form.find('.xj-cron-toggle').on('click', function () {
      var $b = $form.find('.xj-cron-builder');
      if ($b.prop('hidden')) {
        cron.sync();
      }
      $b.prop('hidden', !$b.prop('hidden'));
    });

    function applyGlueType(fillSource) {
      var type = field('glueType').val();
      var bean = type === 'BEAN';
      var $handler = field('executorHandler');
      if (!bean) {
        $handler.val('');
      }
      $handler.prop('readonly', !bean);
      $form.find('.xj-handler-required').toggle(bean);
      if (fillSource) {
        field('glueSource').val(glueTemplate(type));
      }
    }
    field('glueType').on('change', function () {
      applyGlueType(mode !== 'edit');
    });

    var validator = $form.validate($.extend({}, XJ.validatorDefaults, {
      ignore: ':hidden:not(.xj-validate-hidden)',
      rules: {
        jobDesc: { required: true, maxlength: 255 },
        author: { required: true, maxlength: 64 },
        scheduleConfCron: { required: true },
        scheduleConfRate: { required: true, digits: true, min: 1 },
        executorHandler: {
          required: { depends: function () { return field('glueType').val() === 'BEAN'; } }
        },
        executorTimeout: { digits: true },
        executorFailRetryCount: { digits: true }
      },
      messages: {
        jobDesc: { required: XJ.t('system_please_input') + XJ.t('jobinfo_field_jobdesc') },
        author: { required: XJ.t('system_please_input') + XJ.t('jobinfo_field_author') },
        scheduleConfCron: { required: XJ.t('system_please_input') + 'Cron' },
        scheduleConfRate: {
          required: XJ.t('system_please_input') + XJ.t('schedule_type_fix_rate'),
          digits: XJ.t('system_please_input') + XJ.t('system_digits'),
          min: XJ.t('schedule_type') + XJ.t('system_unvalid')
        },
        executorHandler: { required: XJ.t('system_please_input') + 'JobHandler' },
        executorTimeout: { digits: XJ.t('system_please_input') + XJ.t('system_digits') },
        executorFailRetryCount: { digits: XJ.t('system_please_input') + XJ.t('system_digits') }
      },
      submitHandler: save
    }));

    function digitsOrZero(name) {
      var v = $.trim(field(name).val());
      return /^\d+$/.test(v) ? v : '0';
    }

    function save() {
      var type = field('scheduleType').val();
      var conf = '';
      if (type === 'CRON') {
        conf = $.trim(field('scheduleConfCron').val());
      } else if (type === 'FIX_RATE') {
        conf = $.trim(field('scheduleConfRate').val());
      }
      var data = {
        jobGroup: field('jobGroup').val(),
        jobDesc: field('jobDesc').val(),
        author: field('author').val(),
        alarmEmail: field('alarmEmail').val(),
        scheduleType: type,
        scheduleConf: conf,
        glueType: field('glueType').val(),
        executorHandler: field('executorHandler').val(),
        executorParam: field('executorParam').val(),
        executorRouteStrategy: field('executorRouteStrategy').val(),
        childJobId: field('childJobId').val(),
        misfireStrategy: field('misfireStrategy').val(),
        executorBlockStrategy: field('executorBlockStrategy').val(),
        executorTimeout: digitsOrZero('executorTimeout'),
        executorFailRetryCount: digitsOrZero('executorFailRetryCount')
      };
      var path = '/jobinfo/add';
      var okText = XJ.t('system_add_suc');
      var failText = XJ.t('system_add_fail');
      if (mode === 'edit') {
        data.id = field('id').val();
        path = '/jobinfo/update';
        okText = XJ.t('system_update_suc');
        failText = XJ.t('system_update_fail');
      } else {
        data.glueRemark = field('glueRemark').val() || GLUE_REMARK_INIT;
        data.glueSource = field('glueSource').val();
      }
      XJ.post(path, data).done(function (answer) {
        if (XJ.ok(answer)) {
          $modal.modal('hide');
          XJ.toast(okText);
          reload(mode === 'add');
        } else {
          XJ.alert((answer && answer.msg) || failText);
        }
      }).fail(function (message) { XJ.alert(message); });
    }

    function openForm(newMode, row) {
      mode = newMode;
      XJ.resetForm($form, validator);
      $form.find('.xj-cron-builder').prop('hidden', true);
      $modal.find('.xj-mode-add').toggle(mode !== 'edit');
      $modal.find('.xj-mode-edit').toggle(mode === 'edit');
      field('glueType').prop('disabled', mode === 'edit');
      field('glueRemark').val(GLUE_REMARK_INIT);
      field('id').val('');
      if (row) {
        field('id').val(mode === 'edit' ? row.id : '');
        field('jobGroup').val(String(row.jobGroup));
        field('jobDesc').val(row.jobDesc || '');
        field('author').val(row.author || '');
        field('alarmEmail').val(row.alarmEmail || '');
        field('scheduleType').val(row.scheduleType);
        field('scheduleConfCron').val(row.scheduleType === 'CRON' ? row.scheduleConf || '' : '');
        field('scheduleConfRate').val(row.scheduleType === 'FIX_RATE' ? row.scheduleConf || '' : '');
        field('glueType').val(row.glueType);
        applyGlueType(false);
        field('executorHandler').val(row.executorHandler || '');
        field('executorParam').val(row.executorParam || '');
        field('glueSource').val(row.glueSource || glueTemplate(row.glueType));
        field('executorRouteStrategy').val(row.executorRouteStrategy);
        field('childJobId').val(row.childJobId || '');
        field('misfireStrategy').val(row.misfireStrategy);
        field('executorBlockStrategy').val(row.executorBlockStrategy);
        field('executorTimeout').val(row.executorTimeout);
        field('executorFailRetryCount').val(row.executorFailRetryCount);
      } else {
        var group = $('#xj-filter-group').val();
        if (group) {
          field('jobGroup').val(group);
        }
        field('scheduleType').val('CRON');
        field('executorTimeout').val('0');
        field('executorFailRetryCount').val('0');
        applyGlueType(true);
      }
      showScheduleConf();
      XJ.showModal($modal);
    }

    $('#xj-add').on('click', function () { openForm('add', null); });
    $table.on('click', '.xj-edit', function (e) {
      e.preventDefault();
      openForm('edit', rowOf(this));
    });
    $table.on('click', '.xj-copy', function (e) {
      e.preventDefault();
      openForm('copy', rowOf(this));
    });
  });
})(window, window.jQuery, window.XJ);
