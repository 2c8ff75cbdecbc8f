/*
 * GLUE IDE (console.md §6 /jobcode): the job's source in CodeMirror with the
 * mode of its GLUE type, saving a new version (POST /jobcode/save {id,
 * glueSource, glueRemark}, remark 4..100) and loading an older version
 * into the editor ("Version Backtrack"). Both consoles use it; on 3.x the
 * versions show the time each was added and GLUE_PYTHON2 has a mode.
 */
(function (window, $, XJ) {
  'use strict';

  var MODES = {
    GLUE_GROOVY: 'text/x-java',
    GLUE_SHELL: 'text/x-sh',
    GLUE_PYTHON: 'text/x-python',
    GLUE_PYTHON2: 'text/x-python',
    GLUE_PHP: 'text/x-php',
    GLUE_NODEJS: 'text/javascript',
    GLUE_POWERSHELL: 'powershell'
  };

  $(function () {
    var model = XJ.data || {};
    var job = model.job || {};
    var versions = model.versions || [];

    var editor = window.CodeMirror(document.getElementById('xj-ide-editor'), {
      value: job.glueSource || '',
      mode: MODES[job.glueType] || 'text/plain',
      lineNumbers: true,
      matchBrackets: true,
      indentUnit: 4,
      indentWithTabs: true
    });
    editor.focus();

    $('.xj-versions').on('click', '.xj-version', function (e) {
      e.preventDefault();
      var which = $(this).attr('data-version');
      var source = which === 'current' ? job.glueSource : (versions[+which] || {}).glueSource;
      editor.setValue(source || '');
      $('.xj-versions .xj-version').removeClass('xj-version-active');
      $(this).addClass('xj-version-active');
    });

    $('#xj-ide-close').on('click', function (e) {
      e.preventDefault();
      window.close();
      // a tab the browser will not let a script close: go back to the jobs
      // (on 3.x the frame, whose tabs hold the job list)
      window.setTimeout(function () { window.location.href = XJ.url(XJ.gen3 ? '/' : '/jobinfo'); }, 200);
    });

    var $modal = $('#xj-remark-modal');
    var $form = $modal.find('form');
    var validator = $form.validate($.extend({}, XJ.validatorDefaults, {
      rules: { glueRemark: { required: true, rangelength: [4, 100] } },
      messages: {
        glueRemark: {
          required: XJ.t('system_please_input') + XJ.t('jobinfo_glue_remark'),
          rangelength: XJ.t('jobinfo_glue_remark_limit')
        }
      },
      submitHandler: function () {
        XJ.post('/jobcode/save', {
          id: job.id,
          glueSource: editor.getValue(),
          glueRemark: $form.find('[name=glueRemark]').val()
        }).done(function (answer) {
          if (XJ.ok(answer)) {
            $modal.modal('hide');
            XJ.alert(XJ.gen3 ? XJ.t('system_save') + XJ.t('system_success') : XJ.t('system_update_suc'))
              .done(function () { window.location.reload(); });
          } else {
            XJ.alert((answer && answer.msg) || (XJ.gen3 ? XJ.t('system_save') + XJ.t('system_fail') : XJ.t('system_update_fail')));
          }
        }).fail(function (message) { XJ.alert(message); });
      }
    }));
    $('#xj-ide-save').on('click', function (e) {
      e.preventDefault();
      XJ.resetForm($form, validator);
      XJ.showModal($modal);
    });
    $modal.on('shown.bs.modal', function () { $form.find('[name=glueRemark]').trigger('focus'); });
  });
})(window, window.jQuery, window.XJ);
