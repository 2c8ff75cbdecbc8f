/*
 * The starting source of a new GLUE job of each type, for the job forms of
 * both consoles (XJ.glueTemplate(type); '' for BEAN and unknown types):
 * a hello-world that prints the arguments the executor passes (script
 * location, parameter, shard index and total), named in the page's
 * language. GLUE_PYTHON2 is the 3.4.2 console's (python 2 print
 * statements; GLUE_PYTHON is python 3 there).
 */
(function (window, $, XJ) {
  'use strict';

  XJ.glueTemplate = function (type) {
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
      case 'GLUE_PYTHON2':
        return [
          '#!/usr/bin/python',
          '# -*- coding: UTF-8 -*-',
          'import sys',
          '',
          'print "xxl-job: hello python"',
          '',
          'print "' + loc + ':", sys.argv[0]',
          'print "' + param + ':", sys.argv[1]',
          'print "' + idx + ' =", sys.argv[2]',
          'print "' + total + ' =", sys.argv[3]',
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
  };
})(window, window.jQuery, window.XJ);
