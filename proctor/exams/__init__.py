"""Exam and practice attempts: plain data in model.py, operations in service.py."""
