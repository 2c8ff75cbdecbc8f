/*
 * The job list's dialogs, shared by both consoles' job pages: run once
 * (one job, or the batch's jobs: each its own parameter or the one given),
 * the executor's registered addresses, the next trigger times, and the
 * add / edit / copy form with the cron builder (cron-builder.js) and the
 * starting GLUE sources (glue-templates.js). Copying keeps the job's GLUE
 * source and time zone. Where the database keeps per-job time zones the
 * form has the time zone field (empty: the admin's zone; suggestions from
 * the browser's list of IANA zones) and the next trigger times of a job
 * with a zone are asked for in it. The differences of the generations (endpoint names, the bundles'
 * words) come from common.js (XJ.paths, XJ.keys, XJ.gen3); text limits from
 * the template's maxlength attributes.
 *
 * XJ.jobDialogs({reload(firstPage), batch() -> XJ.jobBatch}) ->
 *   { runOnce(row), runMany(rows), registry(row), nextTimes(row), openForm(mode, row) }
 * XJ.scheduleText(row) -> the list's schedule cell
 */
(function (window, $, XJ) {
  'use strict';

  var GLUE_REMARK_INIT = 'GLUE代码初始化'; // what the Java forms send on add, whatever the language

  /**
   * scheduleText is the job list's schedule cell: "type：conf", and the
   * job's own time zone after it when it has one.
   */
  XJ.scheduleText = function (row) {
    var s = row.scheduleConf ? row.scheduleType + '：' + row.scheduleConf : (row.scheduleType || '');
    return row.scheduleTimezone ? s + ' (' + row.scheduleTimezone + ')' : s;
  };

  XJ.jobDialogs = function (opts) {
    // run once: one job, or the selected jobs (batch), which either keep
    // their own parameters or all get the one given
    var $trigger = $('#xj-trigger-modal');
    var $triggerForm = $trigger.find('form');
    var $ownParam = $triggerForm.find('[name=ownParam]');
    var triggerRows = null; // the selected rows while the form is a batch's
    function syncOwnParam() {
      $triggerForm.find('[name=executorParam]').prop('disabled', triggerRows !== null && $ownParam.prop('checked'));
    }
    $ownParam.on('change', syncOwnParam);

    function runOnce(row) {
      triggerRows = null;
      $triggerForm[0].reset();
      $trigger.find('.xj-batch-only').prop('hidden', true);
      syncOwnParam();
      $triggerForm.find('[name=id]').val(row.id);
      $triggerForm.find('[name=executorParam]').val(row.executorParam || '');
      XJ.showModal($trigger);
    }

    function runMany(rows) {
      triggerRows = rows;
      $triggerForm[0].reset();
      $trigger.find('.xj-batch-only').prop('hidden', false);
      $trigger.find('.xj-batch-note').text(XJ.jobWord('batchRun', { n: rows.length }));
      syncOwnParam();
      XJ.showModal($trigger);
    }

    $triggerForm.on('submit', function (e) {
      e.preventDefault();
      if (triggerRows !== null) {
        var own = $ownParam.prop('checked');
        var param = $triggerForm.find('[name=executorParam]').val();
        var addressList = $triggerForm.find('[name=addressList]').val();
        var rows = triggerRows;
        triggerRows = null;
        $trigger.modal('hide');
        opts.batch().run(XJ.t('jobinfo_opt_run'), '/jobinfo/trigger', rows, function (row) {
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
    function registry(row) {
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
    }

    // next trigger times, in the job's zone when it has one
    function nextTimes(row) {
      var query = { scheduleType: row.scheduleType, scheduleConf: row.scheduleConf };
      if (row.scheduleTimezone) {
        query.scheduleTimezone = row.scheduleTimezone;
      }
      XJ.post('/jobinfo/nextTriggerTime', query)
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
    }

    // ------------------------------------------------------------ add / edit / copy

    var $modal = $('#xj-job-modal');
    var $form = $modal.find('form');
    var field = function (name) { return $form.find('[name=' + name + ']'); };
    var mode = 'add';
    var cron = XJ.cronBuilder($form.find('.xj-cron-builder'), field('scheduleConfCron'));

    // the time zone field, on the page only where the database keeps zones
    var $zone = field('scheduleTimezone');
    if ($zone.length) {
      $zone.attr('placeholder', XJ.jobWord('zoneDefault', { zone: $zone.attr('data-admin-zone') }));
      var zones = [];
      try {
        zones = Intl.supportedValuesOf('timeZone');
      } catch (e) {
        zones = []; // an older browser: the field takes what is typed
      }
      var $list = $('#xj-zones');
      $.each(zones, function (_, id) {
        $('<option></option>').attr('value', id).appendTo($list);
      });
    }

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
        field('glueSource').val(XJ.glueTemplate(type));
      }
    }
    field('glueType').on('change', function () {
      applyGlueType(mode !== 'edit');
    });

    // a text field's limit is the template's maxlength (the console's own)
    function maxLength(name) {
      return +field(name).attr('maxlength') || 255;
    }

    var validator = $form.validate($.extend({}, XJ.validatorDefaults, {
      ignore: ':hidden:not(.xj-validate-hidden)',
      rules: {
        jobDesc: { required: true, maxlength: maxLength('jobDesc') },
        author: { required: true, maxlength: maxLength('author') },
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
          min: XJ.t('schedule_type') + XJ.t(XJ.keys.invalid)
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
      if ($zone.length) {
        data.scheduleTimezone = $.trim($zone.val());
      }
      var path = XJ.paths.jobAdd;
      var words = XJ.formWords(mode === 'edit');
      if (mode === 'edit') {
        data.id = field('id').val();
        path = '/jobinfo/update';
      } else {
        data.glueRemark = field('glueRemark').val() || GLUE_REMARK_INIT;
        data.glueSource = field('glueSource').val();
      }
      XJ.post(path, data).done(function (answer) {
        if (XJ.ok(answer)) {
          $modal.modal('hide');
          XJ.toast(words.ok);
          opts.reload(mode === 'add');
        } else {
          XJ.alert((answer && answer.msg) || words.fail);
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
        field('glueSource').val(row.glueSource || XJ.glueTemplate(row.glueType));
        field('executorRouteStrategy').val(row.executorRouteStrategy);
        field('childJobId').val(row.childJobId || '');
        field('misfireStrategy').val(row.misfireStrategy);
        field('executorBlockStrategy').val(row.executorBlockStrategy);
        field('executorTimeout').val(row.executorTimeout);
        field('executorFailRetryCount').val(row.executorFailRetryCount);
        $zone.val(row.scheduleTimezone || '');
      } else {
        var group = $('#xj-filter-group').val();
        if (group) {
          field('jobGroup').val(group);
        }
        field('scheduleType').val('CRON');
        field('executorTimeout').val('0');
        field('executorFailRetryCount').val('0');
        $zone.val('');
        applyGlueType(true);
      }
      showScheduleConf();
      XJ.showModal($modal);
    }

    return { runOnce: runOnce, runMany: runMany, registry: registry, nextTimes: nextTimes, openForm: openForm };
  };
})(window, window.jQuery, window.XJ);
